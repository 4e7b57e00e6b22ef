// The limits on image and audio work per request (named once here, for routes, tests and docs) and the checks that enforce them before any work starts.
import { GatewayError, invalid } from '../errors.ts';
import { readPngHeader, type PngHeader } from '../protocols/media/png-header.ts';
import { readWavFormat } from '../protocols/media/wav-format.ts';

/** Most `n` (images made per request) for generations and edits. */
export const MAX_IMAGES_PER_REQUEST = 10;
/** Smallest and largest side, in pixels, of an output image (`size`). */
export const MIN_IMAGE_SIDE = 64;
export const MAX_IMAGE_SIDE = 2048;
/** The bounds an image request's `n` and `size` are parsed against. */
export const IMAGE_REQUEST_LIMITS = { minSide: MIN_IMAGE_SIDE, maxSide: MAX_IMAGE_SIDE, maxImages: MAX_IMAGES_PER_REQUEST } as const;
/** Most output pixels per request: `n` × width × height (e.g. 10 × 1024×1024, 4 × 2048×2048). */
export const MAX_OUTPUT_PIXELS_PER_REQUEST = 4096 * 4096;
/** Most input images (`image` / `image[]` files) of one edit, besides the one `mask`. */
export const MAX_INPUT_IMAGES = 16;
/** Most pixels an input image (or mask) may declare in its PNG header, checked before anything is inflated. */
export const MAX_INPUT_IMAGE_PIXELS = 2048 * 2048;
/** Most pixels of all input images and the mask of one edit together. */
export const MAX_INPUT_PIXELS_PER_REQUEST = 4096 * 4096;
/** Most bytes of one uploaded file (an image, a mask, or audio to transcribe), as OpenAI's API. */
export const MAX_UPLOAD_FILE_BYTES = 25 * 1024 * 1024;
/** Most bytes of all files of one edit together (each file is also capped at 25 MB by the multipart parser). */
export const MAX_EDIT_UPLOAD_BYTES = 64 * 1024 * 1024;

/** Most characters of a speech `input` (as OpenAI's API). How long the audio may last is the speech provider's own limit. */
export const MAX_SPEECH_INPUT_CHARS = 4096;

/** Sample rates accepted in an uploaded WAV, in Hz. */
export const MIN_WAV_SAMPLE_RATE = 8_000;
export const MAX_WAV_SAMPLE_RATE = 192_000;
/** Most channels accepted in an uploaded WAV. */
export const MAX_WAV_CHANNELS = 8;
/** Most seconds of audio one transcription or translation may decode (and bill), as OpenAI's transcription models. */
export const MAX_TRANSCRIPTION_SECONDS = 1500;

const tooLarge = (message: string, param: string) => new GatewayError('payload_too_large', message, param);

/** A multipart parser error as thrown to the caller: a file over MAX_UPLOAD_FILE_BYTES becomes a 413 naming the limit and the field; others pass unchanged. */
export function uploadLimitError(error: unknown): unknown {
  if ((error as { code?: unknown } | null)?.code !== 'FST_REQ_FILE_TOO_LARGE') return error;
  const field = (error as { part?: { fieldname?: string } }).part?.fieldname ?? 'file';
  return tooLarge(`The file in '${field}' is larger than ${MAX_UPLOAD_FILE_BYTES} bytes, the limit per file.`, field);
}

/** The output of an image request within limits: `n` images of `width`×`height`. */
export function checkImageOutput(n: number, width: number, height: number): void {
  const pixels = n * width * height;
  if (pixels > MAX_OUTPUT_PIXELS_PER_REQUEST) {
    throw invalid(
      `Too many output pixels: n=${n} images of ${width}x${height} are ${pixels} pixels; at most ${MAX_OUTPUT_PIXELS_PER_REQUEST} per request (lower 'n' or 'size').`,
      'n',
    );
  }
}

/** Tallies the input files of one edit as they arrive, refusing the first one over a limit (413 for sizes, 400 for counts). */
export class EditInputTally {
  private images = 0;
  private masks = 0;
  private pixels = 0;
  private bytes = 0;

  /** Checks one uploaded file of `field` by its PNG header (never inflated here); a 400 for a file that is not a PNG we read. */
  add(field: string, file: Buffer): PngHeader {
    this.bytes += file.length;
    if (this.bytes > MAX_EDIT_UPLOAD_BYTES) {
      throw tooLarge(`The uploaded files are larger than ${MAX_EDIT_UPLOAD_BYTES} bytes together (the limit of one edit).`, field);
    }
    if (field === 'mask' && ++this.masks > 1) throw invalid("Send at most one 'mask'.", 'mask');
    if (field !== 'mask' && ++this.images > MAX_INPUT_IMAGES) {
      throw invalid(`Too many input images: at most ${MAX_INPUT_IMAGES} per edit (this request has more).`, 'image');
    }
    let header: PngHeader;
    try {
      header = readPngHeader(file);
    } catch (error) {
      throw invalid(`Invalid image file in '${field}': ${(error as Error).message}. Send a PNG.`, field);
    }
    const pixels = header.width * header.height;
    if (pixels > MAX_INPUT_IMAGE_PIXELS) {
      throw tooLarge(
        `The image in '${field}' declares ${header.width}x${header.height} = ${pixels} pixels; at most ${MAX_INPUT_IMAGE_PIXELS} per image.`,
        field,
      );
    }
    this.pixels += pixels;
    if (this.pixels > MAX_INPUT_PIXELS_PER_REQUEST) {
      throw tooLarge(`The input images declare ${this.pixels} pixels together; at most ${MAX_INPUT_PIXELS_PER_REQUEST} per edit.`, field);
    }
    return header;
  }
}

/** A speech `input` within limits: at most MAX_SPEECH_INPUT_CHARS characters. */
export function checkSpeech(input: string): void {
  if (input.length > MAX_SPEECH_INPUT_CHARS)
    throw invalid(`Invalid value for 'input': at most ${MAX_SPEECH_INPUT_CHARS} characters (got ${input.length}).`, 'input');
}

/** An uploaded audio file's WAV header (when it is a WAV) within limits: a plausible sample rate and channel count, and not too long. */
export function checkTranscriptionInput(file: Buffer): void {
  const wav = readWavFormat(file);
  if (!wav) return;
  if (wav.rate < MIN_WAV_SAMPLE_RATE || wav.rate > MAX_WAV_SAMPLE_RATE) {
    throw invalid(
      `The WAV file declares a sample rate of ${wav.rate} Hz; accepted: ${MIN_WAV_SAMPLE_RATE} to ${MAX_WAV_SAMPLE_RATE} Hz.`,
      'file',
    );
  }
  if (wav.channels < 1 || wav.channels > MAX_WAV_CHANNELS) {
    throw invalid(`The WAV file declares ${wav.channels} channels; accepted: 1 to ${MAX_WAV_CHANNELS}.`, 'file');
  }
  if (wav.seconds !== undefined) checkTranscriptionSeconds(wav.seconds);
}

/** Decoded audio no longer than MAX_TRANSCRIPTION_SECONDS (checked before billing). */
export function checkTranscriptionSeconds(seconds: number): void {
  if (seconds > MAX_TRANSCRIPTION_SECONDS) {
    throw invalid(`The audio lasts ${Math.ceil(seconds)} s; at most ${MAX_TRANSCRIPTION_SECONDS} s per transcription.`, 'file');
  }
}
