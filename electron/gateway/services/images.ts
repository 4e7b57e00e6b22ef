// Image calls: output limits checked, images made by the call's provider, kept as expiring files when the client wants URLs, and charged by size.
import path from 'node:path';
import type { CallContext, ImageUpload, MadeImage, ProviderSelector } from '../providers/types.ts';
import type { Clock } from '../time.ts';
import type { BillingService } from './billing.ts';
import { FileExpiry, IMAGE_URL_TTL_MS } from './file-expiry.ts';
import { readGeneratedFile, storeGeneratedFile } from './generated-files.ts';
import { checkImageOutput } from './media-limits.ts';
import { imagePriceMicros } from './pricing.ts';

/** Generated images live in `<dataDir>/files/images/`. */
const FILES_KIND = 'images';

/** What a variation is made as: an edit of the image toward this theme (a variation has no prompt of its own). */
const VARIATION_PROMPT = 'a variation of this image';

/** What every image call asks besides its inputs: the model, how many images and their size, and whether to keep them as files. */
interface ImageOrder {
  model: string;
  prompt: string;
  n: number;
  width: number;
  height: number;
  /** Store the images as files (the client asked for URLs). */
  keep: boolean;
}

/** Made images, and the file names they were kept under (in order) when asked. */
export interface ImagesMade {
  images: MadeImage[];
  files?: string[];
}

export interface ImagesServiceDeps {
  providers: ProviderSelector;
  billing: BillingService;
  clock: Clock;
  dataDir: string;
  /** A sweep of expired files that failed (reported, never thrown). */
  onError: (error: unknown) => void;
}

export class ImagesService {
  private readonly deps: ImagesServiceDeps;
  private readonly expiry: FileExpiry;
  constructor(deps: ImagesServiceDeps) {
    this.deps = deps;
    this.expiry = new FileExpiry({ dir: this.dir(), clock: deps.clock, ttlMs: IMAGE_URL_TTL_MS, onError: deps.onError });
  }

  /** New images from a prompt. */
  async generate(order: ImageOrder, call: CallContext): Promise<ImagesMade> {
    checkImageOutput(order.n, order.width, order.height);
    const { model, prompt, width, height, n } = order;
    return this.finish(order, await this.providers(call, model).generate({ model, prompt, width, height, n }, call), call);
  }

  /** Edits of the first uploaded image; `size` absent: the first image's size. */
  async edit(
    order: ImageOrder & { images: readonly ImageUpload[]; mask?: ImageUpload; size?: { width: number; height: number } },
    call: CallContext,
  ): Promise<ImagesMade> {
    checkImageOutput(order.n, order.width, order.height);
    const { model, prompt, n, mask, size } = order;
    const images = order.images.map(({ field, bytes }) => ({ field, bytes }));
    const request = { model, prompt, images, ...(mask && { mask: { field: mask.field, bytes: mask.bytes } }), n, ...(size && { size }) };
    return this.finish(order, await this.providers(call, model).edit(request, call), call);
  }

  /** Variations of one uploaded image: edits toward a fixed theme, each of the `n` different, at the size asked. */
  async vary(order: ImageOrder & { image: ImageUpload }, call: CallContext): Promise<ImagesMade> {
    checkImageOutput(order.n, order.width, order.height);
    const { model, n, width, height } = order;
    const request = {
      model,
      prompt: VARIATION_PROMPT,
      images: [{ field: order.image.field, bytes: order.image.bytes }],
      n,
      size: { width, height },
    };
    return this.finish(order, await this.providers(call, model).edit(request, call), call);
  }

  /** Charges images an upstream made for a relayed call, by the size and count the caller asked for (the upstream's answer is passed on unread). */
  chargeRelayed(order: Pick<ImageOrder, 'model' | 'n' | 'width' | 'height'>, call: CallContext): void {
    this.charge(order.model, Array<{ width: number; height: number }>(order.n).fill(order), call);
  }

  /** A kept image's bytes, for its capability URL; undefined once it expired or for a name that is not one. */
  async file(name: string): Promise<Buffer | undefined> {
    const bytes = await readGeneratedFile(this.deps.dataDir, FILES_KIND, name);
    return bytes && !this.expiry.expired(path.join(this.dir(), name)) ? bytes : undefined;
  }

  private providers(call: CallContext, model: string) {
    return this.deps.providers.for(call, model).images;
  }

  /** Keeps the images as files when asked (sweeping expired ones first), then charges them by their sizes. */
  private finish(order: ImageOrder, images: MadeImage[], call: CallContext): ImagesMade {
    let files: string[] | undefined;
    if (order.keep) {
      this.expiry.sweep();
      files = images.map((image) => {
        const png = Buffer.from(image.png.buffer, image.png.byteOffset, image.png.byteLength);
        return this.expiry.stamp(storeGeneratedFile(this.deps.dataDir, FILES_KIND, 'png', png));
      });
    }
    this.charge(order.model, images, call);
    return { images, ...(files && { files }) };
  }

  /** Charges `images` by their sizes. */
  private charge(model: string, images: readonly { width: number; height: number }[], call: CallContext): void {
    const amount = images.reduce((sum, image) => sum + imagePriceMicros(image.width, image.height), 0);
    this.deps.billing.charge(call.principal, { endpoint: call.endpoint, model, inputTokens: 0, outputTokens: 0, amountMicros: amount });
  }

  private dir(): string {
    return path.join(this.deps.dataDir, 'files', FILES_KIND);
  }
}
