// POST /v1/images/generations, /v1/images/edits and /v1/images/variations (multipart): parse, make through the call's provider (kept and billed), render, or relay (an edit's or variation's form streamed on); and the capability URLs of kept images.
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { pathOf } from '../server/protocol.ts';
import type { GatewayContext } from '../context.ts';
import { notFound, invalid } from '../errors.ts';
import type { Fields } from '../protocols/fields.ts';
import type { PngHeader } from '../protocols/media/png-header.ts';
import {
  parseImageEdit,
  parseImageGeneration,
  parseImageVariation,
  renderImages,
  type ImageResponseFormat,
} from '../protocols/openai/inbound/images.ts';
import type { ImageUpload } from '../providers/types.ts';
import { callOf } from '../server/call-context.ts';
import { relayReply } from '../server/relay-reply.ts';
import { streamFailure } from '../server/stream-failure.ts';
import { listenerUrlOf } from '../server/listener-url.ts';
import { FormRelay } from '../server/form-relay.ts';
import { formLimits } from '../server/multipart.ts';
import { IMAGE_URL_TTL_MS } from '../services/file-expiry.ts';
import type { ImagesMade } from '../services/images.ts';
import { imagePriceMicros } from '../services/pricing.ts';
import {
  EditInputTally,
  IMAGE_REQUEST_LIMITS,
  MAX_EDIT_UPLOAD_BYTES,
  MAX_IMAGE_SIDE,
  MAX_IMAGES_PER_REQUEST,
  MAX_INPUT_IMAGES,
  MAX_UPLOAD_FILE_BYTES,
  uploadLimitError,
} from '../services/media-limits.ts';

export async function imagesRoutes(app: FastifyInstance, options: { context: GatewayContext }) {
  const { billing, images, clock, runtime, events, providers } = options.context;
  const failure = streamFailure('openai', (error) => void events.emit('error', error));
  // One file more than the images and the mask, so that the route's own count answers a clear 400 first.
  await app.register(multipart, { limits: formLimits(MAX_INPUT_IMAGES + 2, MAX_UPLOAD_FILE_BYTES) });

  const callOfImages = (request: FastifyRequest, reply: FastifyReply) => callOf(request, reply, 'openai', pathOf(request));
  const keep = (format: ImageResponseFormat) => format === 'url';
  /** The answer: each kept file as an absolute URL on the caller's listener, else the bytes. */
  const render = (request: FastifyRequest, prompt: string | undefined, made: ImagesMade) => {
    const origin = listenerUrlOf(request, runtime);
    return renderImages(
      clock.now(),
      made.images,
      prompt,
      made.files?.map((name) => `${origin}/v1/files/images/${name}`),
    );
  };

  /**
   * The call of an edit's or a variation's form, whose model is read first: when a channel relays that model, the form is
   * streamed on as `operation` (`relayed`), billed as an edit (a variation's fields, without a prompt, are the same).
   */
  const formCall = async (
    request: FastifyRequest,
    reply: FastifyReply,
    form: FormRelay,
    operation: 'images_edits' | 'images_variations',
  ) => {
    const model = await form.model().catch((error: unknown) => {
      throw uploadLimitError(error);
    });
    const call = callOfImages(request, reply);
    const { passthrough } = model === undefined ? {} : providers.for(call, model);
    if (!passthrough || model === undefined) return { call };
    const forward = { operation, model, stream: false, form: form.upstream() } as const;
    // Held before the form goes on: the fields not read yet (after the model) count at their most.
    const held = holdImages(request, relayedEdit(model, { n: MAX_IMAGES_PER_REQUEST, size: LARGEST_SIZE, ...form.fields }));
    const relayed = held
      .during(() =>
        relayReply(request, reply, passthrough, forward, call, failure, () => images.chargeRelayed(relayedEdit(model, form.fields), call)),
      )
      .catch((error: unknown) => {
        throw uploadLimitError(form.error ?? error);
      });
    return { call, relayed };
  };

  /** Holds `n` images of `width`×`height` of `model`, at their price, against the caller's quota until they were charged. */
  const holdImages = (request: FastifyRequest, order: { model: string; n: number; width: number; height: number }) => {
    const amountMicros = order.n * imagePriceMicros(order.width, order.height);
    return billing.reserve(request.principal, () => ({ model: order.model, inputTokens: 0, outputTokens: 0, amountMicros }));
  };

  app.post('/v1/images/generations', async (request, reply) => {
    const asked = parseImageGeneration(request.body, IMAGE_REQUEST_LIMITS);
    const call = callOfImages(request, reply);
    return holdImages(request, asked).during(async () => {
      const { passthrough } = providers.for(call, asked.model);
      if (passthrough) {
        const forward = { operation: 'images_generations', model: asked.model, stream: false } as const;
        return relayReply(request, reply, passthrough, forward, call, failure, () => images.chargeRelayed(asked, call));
      }
      const made = await images.generate({ ...asked, keep: keep(asked.responseFormat) }, call);
      return render(request, asked.prompt, made);
    });
  });

  app.post('/v1/images/edits', async (request, reply) => {
    if (!request.isMultipart()) throw invalid('Send the image as multipart/form-data with an `image` file and a `prompt`.', 'image');
    const form = new FormRelay(request, MAX_EDIT_UPLOAD_BYTES);
    const { call, relayed } = await formCall(request, reply, form, 'images_edits');
    if (relayed) return relayed;
    const edit = await readEditForm(form).catch((error: unknown) => {
      throw uploadLimitError(error);
    });
    const asked = parseImageEdit(edit.fields, edit.images, edit.mask, IMAGE_REQUEST_LIMITS);
    const made = await holdImages(request, asked).during(() =>
      images.edit({ ...asked, keep: keep(asked.responseFormat), images: edit.images, ...(edit.mask && { mask: edit.mask }) }, call),
    );
    return render(request, asked.prompt, made);
  });

  app.post('/v1/images/variations', async (request, reply) => {
    if (!request.isMultipart()) throw invalid('Send the image as multipart/form-data with an `image` file.', 'image');
    const form = new FormRelay(request, MAX_EDIT_UPLOAD_BYTES);
    const { call, relayed } = await formCall(request, reply, form, 'images_variations');
    if (relayed) return relayed;
    const fields: Fields = {};
    let image: (ImageUpload & PngHeader) | undefined;
    const tally = new EditInputTally();
    try {
      for await (const part of form.parts({ keepFile: (field) => field === 'image' })) {
        if (part.kind === 'field') fields[part.field] = part.field === 'n' ? Number(part.value) : part.value;
        else if (image) throw invalid("Send exactly one 'image'.", 'image');
        else image = { field: part.field, bytes: part.bytes, ...tally.add(part.field, part.bytes) };
      }
    } catch (error) {
      throw uploadLimitError(error);
    }
    if (!image) throw invalid("Missing required parameter: 'image'.", 'image');
    const asked = parseImageVariation(fields, IMAGE_REQUEST_LIMITS);
    const made = await holdImages(request, asked).during(() => images.vary({ ...asked, keep: keep(asked.responseFormat), image }, call));
    return render(request, undefined, made);
  });

  app.get<{ Params: { name: string } }>('/v1/files/images/:name', { config: { public: true } }, async (request, reply) => {
    const bytes = await images.file(request.params.name);
    if (!bytes) throw notFound('No such image');
    // Cached no longer than the URL lives.
    return reply
      .type('image/png')
      .header('cache-control', `private, max-age=${IMAGE_URL_TTL_MS / 1000}`)
      .send(bytes);
  });
}

/** The largest size an image call may ask: what a relayed form's `size` counts as until it was read. */
const LARGEST_SIZE = `${MAX_IMAGE_SIDE}x${MAX_IMAGE_SIDE}`;

/** The fields and files of an edit; each file is checked by its PNG header as it arrives, nothing is decoded before every limit holds. */
async function readEditForm(form: FormRelay) {
  const fields: Fields = {};
  const images: (ImageUpload & PngHeader)[] = [];
  let mask: (ImageUpload & PngHeader) | undefined;
  const tally = new EditInputTally();
  const isImage = (field: string) => field === 'image' || field === 'image[]';
  for await (const part of form.parts({ keepFile: (field) => isImage(field) || field === 'mask' })) {
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

/** What a relayed edit is charged as: `n` images (1 when absent or not a whole number) of the size asked (1024×1024 when absent, `auto` or unreadable). */
function relayedEdit(model: string, fields: Record<string, unknown>) {
  const n = Number(fields['n']);
  const size = /^(\d+)x(\d+)$/.exec(typeof fields['size'] === 'string' ? fields['size'] : '');
  return {
    model,
    n: Number.isInteger(n) && n >= 1 && n <= MAX_IMAGES_PER_REQUEST ? n : 1,
    width: size ? Number(size[1]) : 1024,
    height: size ? Number(size[2]) : 1024,
  };
}
