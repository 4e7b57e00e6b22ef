// POST /v1/audio/speech, /v1/audio/transcriptions and /v1/audio/translations (multipart; json, text, verbose_json, srt, vtt, or a stream) in simulate mode.
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { GatewayContext } from '../context.ts';
import { objectBody, optionalNumber, optionalString, requiredString, type Fields } from '../protocols/fields.ts';
import { streamPieces } from '../protocols/neutral/stream-pieces.ts';
import { countTokens } from '../protocols/neutral/tokens.ts';
import { segmentsOf, toSrt, toVtt, wordsOf, type Segment } from '../protocols/media/transcripts.ts';
import { invalid } from '../errors.ts';
import { checkSpeechSeconds } from '../providers/simulate/speech-limit.ts';
import {
  checkSpeech,
  checkTranscriptionInput,
  checkTranscriptionSeconds,
  MAX_UPLOAD_FILE_BYTES,
  uploadLimitError,
} from '../services/media-limits.ts';
import { speechPriceMicros, transcriptionPriceMicros } from '../services/pricing.ts';
import { formLimits, formParts } from '../server/multipart.ts';
import { writeSse } from '../server/sse.ts';

/** Speech formats produced for real, with their content types. */
const SPEECH_FORMATS: Record<'mp3' | 'wav' | 'pcm', string> = { mp3: 'audio/mpeg', wav: 'audio/wav', pcm: 'audio/pcm' };
const TRANSCRIPT_FORMATS = ['json', 'text', 'verbose_json', 'srt', 'vtt'];
/** Audio input tokens reported (and recorded) per second of transcribed audio. */
const AUDIO_TOKENS_PER_SECOND = 10;

export async function audioRoutes(app: FastifyInstance, options: { context: GatewayContext }) {
  const { billing, media } = options.context;
  await app.register(multipart, { limits: formLimits(1, MAX_UPLOAD_FILE_BYTES) });

  app.post('/v1/audio/speech', async (request, reply) => {
    const fields = objectBody(request.body);
    const model = requiredString(fields, 'model');
    const input = requiredString(fields, 'input');
    requiredString(fields, 'voice');
    const speed = optionalNumber(fields, 'speed', { min: 0.25, max: 4 }) ?? 1;
    checkSpeech(input);
    checkSpeechSeconds(input, speed);
    const format = optionalString(fields, 'response_format') ?? 'mp3';
    if (!Object.hasOwn(SPEECH_FORMATS, format)) {
      throw invalid(
        `Invalid value for 'response_format': '${format}'. This gateway produces ${Object.keys(SPEECH_FORMATS).join(', ')}.`,
        'response_format',
      );
    }
    const contentType = SPEECH_FORMATS[format as keyof typeof SPEECH_FORMATS];
    const made = await media.run('speech', { input, speed, format: format as keyof typeof SPEECH_FORMATS });
    const audio = Buffer.from(made.buffer, made.byteOffset, made.byteLength);
    billing.charge(request.principal, {
      endpoint: '/v1/audio/speech',
      model,
      inputTokens: countTokens(input),
      outputTokens: 0,
      amountMicros: speechPriceMicros([...input].length),
    });
    return reply.type(contentType).send(audio);
  });

  const transcriptionRoute = (task: 'transcribe' | 'translate', endpoint: string) =>
    app.post(endpoint, async (request, reply) => {
      if (!request.isMultipart()) throw invalid('Send the audio as multipart/form-data with a `file` and a `model`.', 'file');
      const { fields, granularities, file } = await readAudioForm(request).catch((error: unknown) => {
        throw uploadLimitError(error);
      });
      const model = requiredString(fields, 'model');
      if (!file || file.bytes.length === 0) throw invalid("Missing required parameter: 'file'.", 'file');
      const format = optionalString(fields, 'response_format') ?? 'json';
      if (!TRANSCRIPT_FORMATS.includes(format))
        throw invalid(`Invalid value for 'response_format': expected one of ${TRANSCRIPT_FORMATS.join(', ')}.`, 'response_format');
      const stream = task === 'transcribe' && fields['stream'] === 'true';
      const timestamps = timestampGranularities(granularities);
      checkTranscriptionInput(file.bytes);
      const heard = await media.run('transcribe', { bytes: file.bytes, name: file.name });
      checkTranscriptionSeconds(heard.duration);
      const tokens = { input_tokens: Math.ceil(heard.duration * AUDIO_TOKENS_PER_SECOND), output_tokens: countTokens(heard.text) };
      billing.charge(request.principal, {
        endpoint,
        model,
        inputTokens: tokens.input_tokens,
        outputTokens: tokens.output_tokens,
        amountMicros: transcriptionPriceMicros(heard.duration),
      });
      const usage = { type: 'duration', seconds: Math.ceil(heard.duration) };
      if (stream) {
        const deltas = streamPieces(heard.text).map((delta) => ({ data: { type: 'transcript.text.delta', delta } }));
        const tokenUsage = { type: 'tokens', ...tokens, total_tokens: tokens.input_tokens + tokens.output_tokens };
        return writeSse(request, reply, [...deltas, { data: { type: 'transcript.text.done', text: heard.text, usage: tokenUsage } }]);
      }
      const segments = segmentsOf(heard.text, heard.duration);
      switch (format) {
        case 'text':
          return reply.type('text/plain; charset=utf-8').send(heard.text);
        case 'srt':
          return reply.type('text/plain; charset=utf-8').send(toSrt(segments));
        case 'vtt':
          return reply.type('text/vtt; charset=utf-8').send(toVtt(segments));
        case 'verbose_json': {
          const language = task === 'translate' ? 'english' : (optionalString(fields, 'language') ?? 'english');
          return {
            task,
            language,
            duration: Math.round(heard.duration * 1000) / 1000,
            text: heard.text,
            ...(timestamps.has('word') && { words: wordsOf(heard.text, heard.duration) }),
            ...(timestamps.has('segment') && { segments: segments.map(verboseSegment) }),
            usage,
          };
        }
        default:
          return { text: heard.text, usage };
      }
    });
  transcriptionRoute('transcribe', '/v1/audio/transcriptions');
  // The simulated voice speaks no language in particular: a translation is the transcript itself.
  transcriptionRoute('translate', '/v1/audio/translations');
}

/** The fields, timestamp granularities and file of a transcription form. */
async function readAudioForm(request: FastifyRequest) {
  const fields: Fields = {};
  const granularities: unknown[] = [];
  let file: { bytes: Buffer; name: string } | undefined;
  for await (const part of formParts(request)) {
    if (part.kind === 'file') file = { bytes: part.bytes, name: part.filename };
    else if (part.field === 'timestamp_granularities[]') granularities.push(part.value);
    else fields[part.field] = part.value;
  }
  return { fields, granularities, file };
}

/** The `timestamp_granularities[]` asked for (`segment` when none), or a 400 for another value. */
function timestampGranularities(values: unknown[]): Set<string> {
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
