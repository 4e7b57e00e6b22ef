// POST /v1/images/generations and /v1/images/edits (multipart) in simulate mode, and the capability URLs of generated images.
import multipart from '@fastify/multipart';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { GatewayContext } from '../context.ts';
import { objectBody, optionalNumber, optionalString, requiredString, type Fields } from '../protocols/fields.ts';
import { invalid, notFound } from '../errors.ts';
import { FileExpiry, IMAGE_URL_TTL_MS } from '../services/file-expiry.ts';
import { readGeneratedFile, storeGeneratedFile } from '../services/generated-files.ts';
import {
  checkImageOutput,
  EditInputTally,
  MAX_IMAGE_SIDE,
  MAX_IMAGES_PER_REQUEST,
  MAX_INPUT_IMAGES,
  MAX_UPLOAD_FILE_BYTES,
  MIN_IMAGE_SIDE,
  uploadLimitError,
} from '../services/media-limits.ts';
import { imagePriceMicros } from '../services/pricing.ts';
import type { PngHeader } from '../providers/simulate/png.ts';
import type { ImageUpload, MadeImage } from '../providers/types.ts';
import { listenerUrlOf } from '../server/listener-url.ts';
import { formLimits, formParts } from '../server/multipart.ts';

/** `size` as pixels: `auto` or absent is 1024×1024 (or `fallback`); otherwise WxH with each side from 64 to 2048. */
export function parseSize(size: string | undefined, fallback?: { width: number; height: number }) {
  if (size === undefined || size === 'auto') return fallback ?? { width: 1024, height: 1024 };
  const match = /^(\d+)x(\d+)$/.exec(size);
  const [width, height] = match ? [Number(match[1]), Number(match[2])] : [0, 0];
  if (width < MIN_IMAGE_SIDE || height < MIN_IMAGE_SIDE || width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE) {
    throw invalid(
      `Invalid value for 'size': '${size}'. Use 'auto' or WIDTHxHEIGHT with each side from ${MIN_IMAGE_SIDE} to ${MAX_IMAGE_SIDE}, e.g. 1024x1024.`,
      'size',
    );
  }
  return { width, height };
}

export async function imagesRoutes(app: FastifyInstance, options: { context: GatewayContext }) {
  const { billing, clock, dataDir, media, events } = options.context;
  // One file more than the images and the mask, so that the route's own count answers a clear 400 first.
  await app.register(multipart, { limits: formLimits(MAX_INPUT_IMAGES + 2, MAX_UPLOAD_FILE_BYTES) });
  const expiry = new FileExpiry({
    dir: path.join(dataDir, 'files', 'images'),
    clock,
    ttlMs: IMAGE_URL_TTL_MS,
    onError: (error) => events.emit('error', error),
  });

  /** Checks the output options, then makes the images on a worker thread (`make`), charges them and renders the answer. */
  const answer = async (request: FastifyRequest, fields: Fields, model: string, prompt: string, make: () => Promise<MadeImage[]>) => {
    const format = optionalString(fields, 'response_format') ?? (model.startsWith('gpt-image') ? 'b64_json' : 'url');
    if (format !== 'url' && format !== 'b64_json')
      throw invalid("Invalid value for 'response_format': expected 'url' or 'b64_json'.", 'response_format');
    const outputFormat = optionalString(fields, 'output_format') ?? 'png';
    if (outputFormat !== 'png') {
      throw invalid(`Invalid value for 'output_format': '${outputFormat}'. This gateway produces 'png' only.`, 'output_format');
    }
    const images = await make();
    if (format === 'url') expiry.sweep();
    const origin = listenerUrlOf(request, options.context.runtime);
    const data = images.map((image) => {
      const png = Buffer.from(image.png.buffer, image.png.byteOffset, image.png.byteLength);
      return format === 'b64_json'
        ? { b64_json: png.toString('base64'), revised_prompt: prompt }
        : { url: `${origin}/v1/files/images/${expiry.stamp(storeGeneratedFile(dataDir, 'images', 'png', png))}`, revised_prompt: prompt };
    });
    const amount = images.reduce((sum, image) => sum + imagePriceMicros(image.width, image.height), 0);
    billing.charge(request.principal, {
      endpoint: request.url.split('?')[0]!,
      model,
      inputTokens: 0,
      outputTokens: 0,
      amountMicros: amount,
    });
    return { created: Math.floor(clock.now() / 1000), data, output_format: 'png', size: `${images[0]!.width}x${images[0]!.height}` };
  };

  app.post('/v1/images/generations', async (request) => {
    const fields = objectBody(request.body);
    const prompt = requiredString(fields, 'prompt');
    const model = optionalString(fields, 'model') ?? 'sim-image';
    const n = optionalNumber(fields, 'n', { integer: true, min: 1, max: MAX_IMAGES_PER_REQUEST }) ?? 1;
    const { width, height } = parseSize(optionalString(fields, 'size'));
    checkImageOutput(n, width, height);
    return answer(request, fields, model, prompt, () => media.run('images.generate', { prompt, width, height, n }));
  });

  app.post('/v1/images/edits', async (request) => {
    if (!request.isMultipart()) throw invalid('Send the image as multipart/form-data with an `image` file and a `prompt`.', 'image');
    const { fields, images, mask } = await readEditForm(request).catch((error: unknown) => {
      throw uploadLimitError(error);
    });
    const prompt = requiredString(fields, 'prompt');
    if (images.length === 0) throw invalid("Missing required parameter: 'image'.", 'image');
    if (mask && (mask.width !== images[0]!.width || mask.height !== images[0]!.height)) {
      throw invalid('The mask must have the same size as the image.', 'mask');
    }
    const n = optionalNumber(fields, 'n', { integer: true, min: 1, max: MAX_IMAGES_PER_REQUEST }) ?? 1;
    const size = optionalString(fields, 'size');
    const { width, height } = parseSize(size, images[0]!);
    checkImageOutput(n, width, height);
    const upload = ({ field, bytes }: ImageUpload): ImageUpload => ({ field, bytes });
    return answer(request, fields, optionalString(fields, 'model') ?? 'sim-image', prompt, () =>
      media.run('images.edit', {
        prompt,
        images: images.map(upload),
        ...(mask && { mask: upload(mask) }),
        n,
        ...(size !== undefined && size !== 'auto' && { size: { width, height } }),
      }),
    );
  });

  app.get<{ Params: { name: string } }>('/v1/files/images/:name', { config: { public: true } }, async (request, reply) => {
    const bytes = await readGeneratedFile(dataDir, 'images', request.params.name);
    if (!bytes || expiry.expired(path.join(dataDir, 'files', 'images', request.params.name))) throw notFound('No such image');
    // Cached no longer than the URL lives.
    return reply
      .type('image/png')
      .header('cache-control', `private, max-age=${IMAGE_URL_TTL_MS / 1000}`)
      .send(bytes);
  });
}

/** The fields and files of an edit; each file is checked by its PNG header as it arrives, nothing is decoded before every limit holds. */
async function readEditForm(request: FastifyRequest) {
  const fields: Fields = {};
  const images: (ImageUpload & PngHeader)[] = [];
  let mask: (ImageUpload & PngHeader) | undefined;
  const tally = new EditInputTally();
  const isImage = (field: string) => field === 'image' || field === 'image[]';
  for await (const part of formParts(request, { keepFile: (field) => isImage(field) || field === 'mask' })) {
    if (part.kind === 'file') {
      const upload = { field: part.field, bytes: part.bytes, ...tally.add(part.field, part.bytes) };
      if (isImage(part.field)) images.push(upload);
      else mask = upload;
    } else {
      fields[part.field] = part.field === 'n' ? Number(part.value) : part.value;
    }
  }
  return { fields, images, mask };
}
