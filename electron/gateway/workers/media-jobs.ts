// The CPU-heavy jobs (image generation and edits, speech, transcription, large simulated chats) as plain functions of plain data, run by the worker threads.
import { wavFile } from '../providers/simulate/audio-containers.ts';
import { mp3File } from '../providers/simulate/mp3-file.ts';
import { speak, synthesizeSpeech, VOICE_RATE } from '../providers/simulate/fsk-voice.ts';
import { editImage, generateImage, resizeImage } from '../providers/simulate/images.ts';
import { pcmBytes } from '../providers/simulate/pcm.ts';
import { decodePng, encodePng, type RgbaImage } from '../providers/simulate/png.ts';
import { transcribe, type Heard } from '../providers/simulate/transcribe.ts';
import { simulateChat } from '../providers/simulate/text/engine.ts';
import { estimateInputTokens } from '../protocols/neutral/tokens.ts';
import type { ChatRequest, ChatResult } from '../protocols/neutral/chat.ts';

/** One uploaded image file and the form field it came in. */
export interface ImageUpload {
  field: string;
  bytes: Uint8Array;
}

/** A PNG made by a job, with its size. */
export interface MadeImage {
  png: Uint8Array;
  width: number;
  height: number;
}

/** Each job kind: what it is given and what it gives back (all structured-cloneable). */
export interface MediaJobs {
  'images.generate': { input: { prompt: string; width: number; height: number; n: number }; output: MadeImage[] };
  /** `size` absent: the first image's size. */
  'images.edit': {
    input: { prompt: string; images: ImageUpload[]; mask?: ImageUpload; n: number; size?: { width: number; height: number } };
    output: MadeImage[];
  };
  speech: { input: { input: string; speed: number; format: 'mp3' | 'wav' | 'pcm' }; output: Uint8Array };
  transcribe: { input: { bytes: Uint8Array; name: string }; output: Heard };
  /** The simulated voice's PCM16 samples at 24 kHz (realtime audio output). */
  voice: { input: { text: string; speed: number }; output: Int16Array };
  /** A simulated chat answer whose request is too large to work on in-line (see `providers/simulate/chat.ts`). */
  chat: { input: ChatRequest; output: ChatResult };
  /** The input token estimate of such a request (count_tokens). */
  'chat.tokens': { input: ChatRequest; output: number };
}

export type MediaJobKind = keyof MediaJobs;

/** A job as sent to a worker. */
export type MediaJob = { [K in MediaJobKind]: { kind: K; input: MediaJobs[K]['input'] } }[MediaJobKind];

/** A job's input was unusable (e.g. a corrupt PNG): the caller's fault, named by its field. */
export class JobInputError extends Error {
  override readonly name = 'JobInputError';
  readonly param: string;
  constructor(message: string, param: string) {
    super(message);
    this.param = param;
  }
}

const bufferOf = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
const made = (image: RgbaImage): MadeImage => ({ png: encodePng(image), width: image.width, height: image.height });

function decodeUpload(upload: ImageUpload): RgbaImage {
  try {
    return decodePng(bufferOf(upload.bytes));
  } catch (error) {
    throw new JobInputError(`Invalid image file in '${upload.field}': ${(error as Error).message}. Send a PNG.`, upload.field);
  }
}

const JOBS: { [K in MediaJobKind]: (input: MediaJobs[K]['input']) => MediaJobs[K]['output'] } = {
  'images.generate': ({ prompt, width, height, n }) => Array.from({ length: n }, (_, i) => made(generateImage(prompt, width, height, i))),
  'images.edit': ({ prompt, images, mask, n, size }) => {
    // Every image is decoded (a corrupt one is a 400, as before); only the first is edited.
    const source = images.map(decodeUpload)[0]!;
    const alpha = mask && decodeUpload(mask);
    const { width, height } = size ?? source;
    return Array.from({ length: n }, (_, i) =>
      made(resizeImage(editImage(source, i === 0 ? prompt : `${prompt} #${i}`, alpha), width, height)),
    );
  },
  speech: ({ input, speed, format }) => {
    const samples = speak(input, speed);
    return format === 'wav'
      ? wavFile(samples, VOICE_RATE, input)
      : format === 'pcm'
        ? pcmBytes(samples)
        : mp3File(samples, VOICE_RATE, input);
  },
  transcribe: ({ bytes, name }) => transcribe(bufferOf(bytes), name),
  voice: ({ text, speed }) => synthesizeSpeech(text, { speed }),
  chat: (request) => simulateChat(request),
  'chat.tokens': (request) => estimateInputTokens(request),
};

/** Runs one job here, on the calling thread (the worker's side of the pool; tests may call it directly). */
export function runMediaJob<K extends MediaJobKind>(kind: K, input: MediaJobs[K]['input']): MediaJobs[K]['output'] {
  return (JOBS[kind] as (input: MediaJobs[K]['input']) => MediaJobs[K]['output'])(input);
}
