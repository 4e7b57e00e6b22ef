// POST /v1/images/generations and /v1/images/edits (multipart) in simulate mode, and the capability URLs of generated images.
import multipart from '@fastify/multipart';
import { createReadStream } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { GatewayContext } from '../context.ts';
import { objectBody, optionalNumber, optionalString, requiredString, type Fields } from '../protocols/fields.ts';
import { editImage, generateImage, resizeImage } from '../providers/simulate/images.ts';
import { decodePng, encodePng, type RgbaImage } from '../providers/simulate/png.ts';
import { invalid, notFound } from '../services/errors.ts';
import { FileExpiry, IMAGE_URL_TTL_MS } from '../services/file-expiry.ts';
import { generatedFilePath, storeGeneratedFile } from '../services/generated-files.ts';
import { imagePriceMicros } from '../services/pricing.ts';

const MAX_SIDE = 2048;
const MIN_SIDE = 64;

/** `size` as pixels: `auto` or absent is 1024×1024; otherwise WxH with each side from 64 to 2048. */
export function parseSize(size: string | undefined, fallback?: { width: number; height: number }) {
  if (size === undefined || size === 'auto') return fallback ?? { width: 1024, height: 1024 };
  const match = /^(\d+)x(\d+)$/.exec(size);
  const [width, height] = match ? [Number(match[1]), Number(match[2])] : [0, 0];
  if (width < MIN_SIDE || height < MIN_SIDE || width > MAX_SIDE || height > MAX_SIDE) {
    throw invalid(`Invalid value for 'size': '${size}'. Use 'auto' or WIDTHxHEIGHT with each side from ${MIN_SIDE} to ${MAX_SIDE}, e.g. 1024x1024.`, 'size');
  }
  return { width, height };
}

export async function imagesRoutes(app: FastifyInstance, options: { context: GatewayContext }) {
  const { billing, clock, dataDir, events } = options.context;
  const expiry = new FileExpiry({
    dir: path.join(dataDir, 'files', 'images'),
    clock,
    ttlMs: IMAGE_URL_TTL_MS,
    onError: (error) => {
      if (events.listenerCount('error') > 0) events.emit('error', error);
    },
  });
  await app.register(multipart, { limits: { fileSize: 25 * 1024 * 1024, files: 17 } });

  /** Checks the output options, then makes the images (`make`), charges them and renders the answer. */
  const answer = (request: FastifyRequest, fields: Fields, model: string, prompt: string, make: () => RgbaImage[]) => {
    const format = optionalString(fields, 'response_format') ?? (model.startsWith('gpt-image') ? 'b64_json' : 'url');
    if (format !== 'url' && format !== 'b64_json') throw invalid("Invalid value for 'response_format': expected 'url' or 'b64_json'.", 'response_format');
    const outputFormat = optionalString(fields, 'output_format') ?? 'png';
    if (outputFormat !== 'png') {
      throw invalid(`Invalid value for 'output_format': '${outputFormat}'. This gateway produces 'png' only.`, 'output_format');
    }
    const images = make();
    if (format === 'url') expiry.sweep();
    const origin = `${request.protocol}://${request.headers.host ?? request.hostname}`;
    const data = images.map((image) => {
      const png = encodePng(image);
      return format === 'b64_json'
        ? { b64_json: png.toString('base64'), revised_prompt: prompt }
        : { url: `${origin}/v1/files/images/${expiry.stamp(storeGeneratedFile(dataDir, 'images', 'png', png))}`, revised_prompt: prompt };
    });
    const amount = images.reduce((sum, image) => sum + imagePriceMicros(image.width, image.height), 0);
    billing.charge(request.principal, { endpoint: request.url.split('?')[0]!, model, inputTokens: 0, outputTokens: 0, amountMicros: amount });
    return { created: Math.floor(clock.now() / 1000), data, output_format: 'png', size: `${images[0]!.width}x${images[0]!.height}` };
  };

  app.post('/v1/images/generations', async (request) => {
    const fields = objectBody(request.body);
    const prompt = requiredString(fields, 'prompt');
    const model = optionalString(fields, 'model') ?? 'sim-image';
    const n = optionalNumber(fields, 'n', { integer: true, min: 1, max: 10 }) ?? 1;
    const { width, height } = parseSize(optionalString(fields, 'size'));
    return answer(request, fields, model, prompt, () => Array.from({ length: n }, (_, i) => generateImage(prompt, width, height, i)));
  });

  app.post('/v1/images/edits', async (request) => {
    if (!request.isMultipart()) throw invalid('Send the image as multipart/form-data with an `image` file and a `prompt`.', 'image');
    const fields: Fields = {};
    const images: RgbaImage[] = [];
    let mask: RgbaImage | undefined;
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        const decoded = decodeOrFail(bytes, part.fieldname);
        if (part.fieldname === 'mask') mask = decoded;
        else if (part.fieldname === 'image' || part.fieldname === 'image[]') images.push(decoded);
      } else {
        fields[part.fieldname] = part.fieldname === 'n' ? Number(part.value) : part.value;
      }
    }
    const prompt = requiredString(fields, 'prompt');
    if (images.length === 0) throw invalid("Missing required parameter: 'image'.", 'image');
    if (mask && (mask.width !== images[0]!.width || mask.height !== images[0]!.height)) {
      throw invalid('The mask must have the same size as the image.', 'mask');
    }
    const n = optionalNumber(fields, 'n', { integer: true, min: 1, max: 10 }) ?? 1;
    const source = images[0]!;
    const { width, height } = parseSize(optionalString(fields, 'size'), source);
    return answer(request, fields, optionalString(fields, 'model') ?? 'sim-image', prompt, () =>
      Array.from({ length: n }, (_, i) => resizeImage(editImage(source, i === 0 ? prompt : `${prompt} #${i}`, mask), width, height)),
    );
  });

  app.get<{ Params: { name: string } }>('/v1/files/images/:name', { config: { public: true } }, async (request, reply) => {
    const file = generatedFilePath(dataDir, 'images', request.params.name);
    if (!file || expiry.expired(file)) throw notFound('No such image');
    return reply.type('image/png').header('cache-control', 'private, max-age=31536000, immutable').send(createReadStream(file));
  });
}

function decodeOrFail(bytes: Buffer, field: string): RgbaImage {
  try {
    return decodePng(bytes);
  } catch (error) {
    throw invalid(`Invalid image file in '${field}': ${(error as Error).message}. Send a PNG.`, field);
  }
}
