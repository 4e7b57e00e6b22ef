// The seam's media capabilities: images, moderation, speech, transcription and a realtime session's ears and voice.
import type { ToolSpec } from '../../protocols/neutral/chat.ts';
import type { HeardTranscript } from '../../protocols/openai/inbound/audio.ts';
import type { CallContext } from '../types.ts';

/** A PNG image made by a provider. */
export interface MadeImage {
  png: Uint8Array;
  width: number;
  height: number;
}

/** An uploaded image (or mask) of an edit, as its form field and bytes. */
export interface ImageUpload {
  field: string;
  bytes: Uint8Array;
}

export interface ImagesProvider {
  generate(request: { model: string; prompt: string; width: number; height: number; n: number }, call: CallContext): Promise<MadeImage[]>;
  /** `size` absent: the first image's size. */
  edit(
    request: {
      model: string;
      prompt: string;
      images: readonly ImageUpload[];
      mask?: ImageUpload;
      n: number;
      size?: { width: number; height: number };
    },
    call: CallContext,
  ): Promise<MadeImage[]>;
}

/** The categories of a moderation verdict, as the OpenAI moderation models name them. */
export const MODERATION_CATEGORIES = [
  'harassment',
  'harassment/threatening',
  'hate',
  'hate/threatening',
  'illicit',
  'illicit/violent',
  'self-harm',
  'self-harm/intent',
  'self-harm/instructions',
  'sexual',
  'sexual/minors',
  'violence',
  'violence/graphic',
] as const;

export type ModerationCategory = (typeof MODERATION_CATEGORIES)[number];

/** One part of what is classified together: a text, or an image by URL (or data URL). */
export type ModerationPart = { type: 'text'; text: string } | { type: 'image'; url: string };

/** The verdict on one input: per category whether it is flagged, its score (0 to 1), and the kinds of input the score applies to. */
export interface ModerationVerdict {
  flagged: Record<ModerationCategory, boolean>;
  scores: Record<ModerationCategory, number>;
  appliedTo: Record<ModerationCategory, ('text' | 'image')[]>;
}

export interface ModerationProvider {
  /** One verdict per input, in order; each input is classified as a whole (all its parts together). */
  classify(request: { model: string; inputs: readonly (readonly ModerationPart[])[] }, call: CallContext): Promise<ModerationVerdict[]>;
}

/** Audio formats a speech provider produces. */
export type SpeechFormat = 'mp3' | 'wav' | 'pcm';

export interface SpeechProvider {
  /** The spoken `input`, encoded as `format`. */
  speak(
    request: { model: string; input: string; voice: string; speed: number; format: SpeechFormat },
    call: CallContext,
  ): Promise<Uint8Array>;
}

/** A transcript with its timing, as the transcription route reads it: segments and words a provider does not give are timed evenly by the gateway. */
export type Transcript = HeardTranscript;

export interface TranscriptionProvider {
  /** What is said in an uploaded audio file; `translate` answers in English. */
  transcribe(
    request: { model: string; task: 'transcribe' | 'translate'; bytes: Uint8Array; fileName: string; language?: string; prompt?: string },
    call: CallContext,
  ): Promise<Transcript>;
}

/** What a realtime session's model does besides chatting: hear the user's audio and speak its answer. */
export interface RealtimeProvider {
  /** The text said in a user's audio turn (24 kHz PCM16, silence around it as voice detection leaves it). */
  hear(samples: Int16Array, call: CallContext): Promise<string>;
  /** The model's voice saying `text` at `speed`, as 24 kHz PCM16. */
  speak(text: string, speed: number, call: CallContext): Promise<Int16Array>;
  /** The longest start of `text` (whole token pieces) the voice speaks at `speed` within one response's length limit. */
  speakable(text: string, speed: number): string;
  /** The most seconds of audio one spoken response lasts (its `speakable` limit), for a quota's reservation; absent: no voice. */
  readonly maxSpokenSeconds?: number;
  /**
   * Refuses, with a GatewayError, tools declared ahead of any response (realtime `session.update`, `response.tools`)
   * that the model could never call within its limits, so no later response fails on them. `path` names where the
   * client declared them (`session.tools`), for the message.
   */
  checkTools(tools: readonly ToolSpec[], path: string, call: CallContext): Promise<void>;
  /**
   * Set when the session's model has no ears or voice here (text turns translated to another protocol's chat): why,
   * in the words an error event gives a request for audio. The session then answers in text and refuses audio.
   */
  readonly textOnly?: string;
}
