// The OpenAI audio shapes: speech and transcription requests checked, and a transcript rendered as json, text, verbose_json, srt, vtt or a stream of events.
import { invalid } from '../../../errors.ts';
import { segmentsOf, toSrt, toVtt, wordsOf, type Segment } from '../../media/transcripts.ts';
import type { NamedEvent } from '../../named-event.ts';
import { streamPieces } from '../../neutral/stream-pieces.ts';
import { objectBody, optionalNumber, optionalString, requiredString, type Fields } from '../../fields.ts';

/** Speech formats produced, with their content types. */
const SPEECH_FORMATS = { mp3: 'audio/mpeg', wav: 'audio/wav', pcm: 'audio/pcm' } as const;
export type SpeechResponseFormat = keyof typeof SPEECH_FORMATS;
const TRANSCRIPT_FORMATS = ['json', 'text', 'verbose_json', 'srt', 'vtt'] as const;
export type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];

/** A speech request, checked. */
export interface SpeechRequest {
  model: string;
  input: string;
  voice: string;
  speed: number;
  format: SpeechResponseFormat;
}

/** The body of POST /v1/audio/speech, or a 400 naming the first field that is wrong. */
export function parseSpeechRequest(body: unknown): SpeechRequest {
  const fields = objectBody(body);
  const model = requiredString(fields, 'model');
  const input = requiredString(fields, 'input');
  const voice = requiredString(fields, 'voice');
  const speed = optionalNumber(fields, 'speed', { min: 0.25, max: 4 }) ?? 1;
  const format = optionalString(fields, 'response_format') ?? 'mp3';
  if (!Object.hasOwn(SPEECH_FORMATS, format)) {
    throw invalid(
      `Invalid value for 'response_format': '${format}'. This gateway produces ${Object.keys(SPEECH_FORMATS).join(', ')}.`,
      'response_format',
    );
  }
  return { model, input, voice, speed, format: format as SpeechResponseFormat };
}

/** The content type of speech in `format`. */
export function speechContentType(format: SpeechResponseFormat): string {
  return SPEECH_FORMATS[format];
}

/** A transcription or translation request, checked (the file's bytes are read by the route). */
export interface TranscriptionRequest {
  model: string;
  format: TranscriptFormat;
  /** Transcript events instead of one answer (transcriptions only). */
  stream: boolean;
  /** `word` and/or `segment` timestamps in verbose_json. */
  timestamps: Set<string>;
  language?: string;
  prompt?: string;
}

/** The fields of a transcription form with its `timestamp_granularities[]` values and file, or a 400 naming the first that is wrong. */
export function parseTranscriptionRequest<File extends { bytes: Uint8Array }>(
  task: 'transcribe' | 'translate',
  fields: Fields,
  granularities: readonly unknown[],
  file: File | undefined,
): TranscriptionRequest & { file: File } {
  const model = requiredString(fields, 'model');
  if (!file || file.bytes.length === 0) throw invalid("Missing required parameter: 'file'.", 'file');
  const format = optionalString(fields, 'response_format') ?? 'json';
  if (!(TRANSCRIPT_FORMATS as readonly string[]).includes(format))
    throw invalid(`Invalid value for 'response_format': expected one of ${TRANSCRIPT_FORMATS.join(', ')}.`, 'response_format');
  const stream = task === 'transcribe' && fields['stream'] === 'true';
  const timestamps = timestampGranularities(granularities);
  const language = optionalString(fields, 'language');
  const prompt = optionalString(fields, 'prompt');
  return {
    model,
    file,
    format: format as TranscriptFormat,
    stream,
    timestamps,
    ...(language !== undefined && { language }),
    ...(prompt !== undefined && { prompt }),
  };
}

/** What was heard, as a provider tells it; segments and words absent are timed evenly over the duration. */
export interface HeardTranscript {
  text: string;
  duration: number;
  language?: string;
  segments?: { start: number; end: number; text: string }[];
  words?: { word: string; start: number; end: number }[];
}

/** Tokens a transcription read (audio) and wrote (text). */
export interface TranscriptTokens {
  input_tokens: number;
  output_tokens: number;
}

/** A transcript answer: JSON, or text of a content type. */
export type RenderedTranscript = { json: unknown } | { contentType: string; text: string };

/** The transcript in the requested format; verbose_json names the language (English for translations) and the asked timestamps. */
export function renderTranscript(
  task: 'transcribe' | 'translate',
  request: TranscriptionRequest,
  heard: HeardTranscript,
): RenderedTranscript {
  const usage = { type: 'duration', seconds: Math.ceil(heard.duration) };
  const segments: Segment[] = heard.segments?.map((segment, id) => ({ id, ...segment })) ?? segmentsOf(heard.text, heard.duration);
  switch (request.format) {
    case 'text':
      return { contentType: 'text/plain; charset=utf-8', text: heard.text };
    case 'srt':
      return { contentType: 'text/plain; charset=utf-8', text: toSrt(segments) };
    case 'vtt':
      return { contentType: 'text/vtt; charset=utf-8', text: toVtt(segments) };
    case 'verbose_json': {
      const language = task === 'translate' ? 'english' : (heard.language ?? request.language ?? 'english');
      return {
        json: {
          task,
          language,
          duration: Math.round(heard.duration * 1000) / 1000,
          text: heard.text,
          ...(request.timestamps.has('word') && { words: heard.words ?? wordsOf(heard.text, heard.duration) }),
          ...(request.timestamps.has('segment') && { segments: segments.map(verboseSegment) }),
          usage,
        },
      };
    }
    default:
      return { json: { text: heard.text, usage } };
  }
}

/** The transcript as stream events: its text in deltas, then the whole text with the token usage. */
export function transcriptEvents(text: string, tokens: TranscriptTokens): NamedEvent[] {
  const deltas = streamPieces(text).map((delta) => ({ data: { type: 'transcript.text.delta', delta } }));
  const usage = { type: 'tokens', ...tokens, total_tokens: tokens.input_tokens + tokens.output_tokens };
  return [...deltas, { data: { type: 'transcript.text.done', text, usage } }];
}

/** The `timestamp_granularities[]` asked for (`segment` when none), or a 400 for another value. */
function timestampGranularities(values: readonly unknown[]): Set<string> {
  for (const value of values) {
    if (value !== 'word' && value !== 'segment') {
      throw invalid("Invalid value for 'timestamp_granularities[]': expected 'word' or 'segment'.", 'timestamp_granularities');
    }
  }
  return new Set(values.length === 0 ? ['segment'] : (values as string[]));
}

/** A segment with the extra fields of OpenAI's verbose_json (fixed, plausible values: there is no real decoder). */
function verboseSegment(segment: Segment) {
  return { ...segment, seek: 0, tokens: [], temperature: 0, avg_logprob: -0.1, compression_ratio: 1, no_speech_prob: 0 };
}
