// The OpenAI images shape: generation and edit requests checked (size, n, response and output format), and the list of images rendered.
import { invalid } from '../../../errors.ts';
import { objectBody, optionalNumber, optionalString, requiredString, type Fields } from '../../fields.ts';

/** The bounds a request is checked against (the gateway's media limits). */
export interface ImageRequestLimits {
  /** Smallest and largest side of an output image, in pixels. */
  minSide: number;
  maxSide: number;
  /** Most images per request (`n`). */
  maxImages: number;
}

/** How images are returned: a URL to fetch each from, or its bytes in base64. */
export type ImageResponseFormat = 'url' | 'b64_json';

/** A generation request, checked. */
export interface ImageGenerationRequest {
  model: string;
  prompt: string;
  n: number;
  width: number;
  height: number;
  responseFormat: ImageResponseFormat;
}

/** An edit request's fields, checked; `size` only when the client named one (else the first image's size). */
export interface ImageEditRequest {
  model: string;
  prompt: string;
  n: number;
  width: number;
  height: number;
  size?: { width: number; height: number };
  responseFormat: ImageResponseFormat;
}

/** `size` as pixels: `auto` or absent is 1024×1024 (or `fallback`); otherwise WxH with each side within the limits. */
export function parseSize(size: string | undefined, limits: ImageRequestLimits, fallback?: { width: number; height: number }) {
  if (size === undefined || size === 'auto') return fallback ?? { width: 1024, height: 1024 };
  const match = /^(\d+)x(\d+)$/.exec(size);
  const [width, height] = match ? [Number(match[1]), Number(match[2])] : [0, 0];
  const { minSide, maxSide } = limits;
  if (width < minSide || height < minSide || width > maxSide || height > maxSide) {
    throw invalid(
      `Invalid value for 'size': '${size}'. Use 'auto' or WIDTHxHEIGHT with each side from ${minSide} to ${maxSide}, e.g. 1024x1024.`,
      'size',
    );
  }
  return { width, height };
}

/** The body of POST /v1/images/generations, or a 400 naming the first field that is wrong. */
export function parseImageGeneration(body: unknown, limits: ImageRequestLimits): ImageGenerationRequest {
  const fields = objectBody(body);
  const prompt = requiredString(fields, 'prompt');
  const model = optionalString(fields, 'model') ?? 'sim-image';
  const n = optionalNumber(fields, 'n', { integer: true, min: 1, max: limits.maxImages }) ?? 1;
  const { width, height } = parseSize(optionalString(fields, 'size'), limits);
  return { model, prompt, n, width, height, responseFormat: responseFormatOf(fields, model) };
}

/**
 * The form fields of POST /v1/images/edits, given the sizes its image files and mask declared (in order), or a 400
 * naming the first field that is wrong.
 */
export function parseImageEdit(
  fields: Fields,
  images: readonly { width: number; height: number }[],
  mask: { width: number; height: number } | undefined,
  limits: ImageRequestLimits,
): ImageEditRequest {
  const prompt = requiredString(fields, 'prompt');
  const first = images[0];
  if (!first) throw invalid("Missing required parameter: 'image'.", 'image');
  if (mask && (mask.width !== first.width || mask.height !== first.height)) {
    throw invalid('The mask must have the same size as the image.', 'mask');
  }
  const n = optionalNumber(fields, 'n', { integer: true, min: 1, max: limits.maxImages }) ?? 1;
  const size = optionalString(fields, 'size');
  const { width, height } = parseSize(size, limits, first);
  const model = optionalString(fields, 'model') ?? 'sim-image';
  return {
    model,
    prompt,
    n,
    width,
    height,
    ...(size !== undefined && size !== 'auto' && { size: { width, height } }),
    responseFormat: responseFormatOf(fields, model),
  };
}

/** The sides a variation may have, as on the real API. */
const VARIATION_SIZES = ['256x256', '512x512', '1024x1024'];

/** The form fields of POST /v1/images/variations (the image itself is checked by its PNG header), or a 400 naming the first field that is wrong. */
export function parseImageVariation(fields: Fields, limits: ImageRequestLimits): ImageGenerationRequest {
  const model = optionalString(fields, 'model') ?? 'sim-image';
  const n = optionalNumber(fields, 'n', { integer: true, min: 1, max: limits.maxImages }) ?? 1;
  const size = optionalString(fields, 'size') ?? '1024x1024';
  if (!VARIATION_SIZES.includes(size))
    throw invalid(`Invalid value for 'size': '${size}'. Expected one of ${VARIATION_SIZES.join(', ')}.`, 'size');
  const { width, height } = parseSize(size, limits);
  return { model, prompt: '', n, width, height, responseFormat: responseFormatOf(fields, model) };
}

/** The answer: each image as a URL (`urls`, in order) or as base64 PNG bytes, with the prompt as its revised prompt (none for a variation, which has no prompt). */
export function renderImages(
  createdMs: number,
  images: readonly { png: Uint8Array; width: number; height: number }[],
  prompt: string | undefined,
  urls?: readonly string[],
) {
  const revised = prompt === undefined ? {} : { revised_prompt: prompt };
  const data = images.map((image, index) =>
    urls
      ? { url: urls[index]!, ...revised }
      : { b64_json: Buffer.from(image.png.buffer, image.png.byteOffset, image.png.byteLength).toString('base64'), ...revised },
  );
  return { created: Math.floor(createdMs / 1000), data, output_format: 'png', size: `${images[0]!.width}x${images[0]!.height}` };
}

/** `response_format` (default: b64_json for gpt-image models, url for others); `output_format` must be png, the only one made. */
function responseFormatOf(fields: Fields, model: string): ImageResponseFormat {
  const format = optionalString(fields, 'response_format') ?? (model.startsWith('gpt-image') ? 'b64_json' : 'url');
  if (format !== 'url' && format !== 'b64_json')
    throw invalid("Invalid value for 'response_format': expected 'url' or 'b64_json'.", 'response_format');
  const outputFormat = optionalString(fields, 'output_format') ?? 'png';
  if (outputFormat !== 'png') {
    throw invalid(`Invalid value for 'output_format': '${outputFormat}'. This gateway produces 'png' only.`, 'output_format');
  }
  return format;
}
