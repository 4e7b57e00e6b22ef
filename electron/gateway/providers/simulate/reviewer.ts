// Simulated upstream reviewer: deterministic test values in the URL decide each asset's fate, like a payment sandbox's test cards.
import type { AssetType } from '../../../../shared/portrait.ts';
import { publicId } from '../../ids.ts';
import type { SimReviewsRepo } from './reviews-repo.ts';
import type { Clock } from '../../time.ts';
import { UpstreamError } from '../../errors.ts';
import type { Reviewer, ReviewVerdict } from '../types.ts';

/** File extensions that identify each asset type; an extension of another type is a format mismatch. */
const EXTENSIONS: Record<AssetType, readonly string[]> = {
  Image: ['png', 'jpg', 'jpeg', 'gif', 'webp', 'bmp', 'tif', 'tiff', 'heic', 'avif', 'svg'],
  Video: ['mp4', 'mov', 'webm', 'mkv', 'avi', 'm4v', 'flv', 'wmv', 'mpeg', 'mpg'],
  Audio: ['mp3', 'wav', 'ogg', 'flac', 'aac', 'm4a', 'opus', 'wma', 'aiff'],
};

/** How many status checks of a `flaky` URL fail before one succeeds. */
export const FLAKY_FAILURES = 2;

export interface SimulatedReviewerOptions {
  repo: SimReviewsRepo;
  clock: Clock;
  /** Time from submission to the final verdict. */
  reviewMs: number;
}

export class SimulatedReviewer implements Reviewer {
  private readonly options: SimulatedReviewerOptions;
  constructor(options: SimulatedReviewerOptions) {
    this.options = options;
  }

  async submit(input: { url: string; assetType: AssetType }): Promise<{ upstreamId: string }> {
    const url = new URL(input.url);
    if (url.hostname.endsWith('.invalid')) {
      throw new UpstreamError(`the file at ${url.host} could not be fetched (host does not resolve)`);
    }
    const upstreamId = publicId('sim');
    this.options.repo.insert({
      upstream_id: upstreamId,
      url: input.url,
      asset_type: input.assetType,
      submitted_at: this.options.clock.now(),
    });
    return { upstreamId };
  }

  async check(upstreamId: string): Promise<ReviewVerdict> {
    const row = this.options.repo.countCheck(upstreamId);
    if (!row) throw new UpstreamError(`the upstream has no asset ${upstreamId}`);
    const url = new URL(row.url);
    if (url.pathname.toLowerCase().includes('flaky') && row.checks <= FLAKY_FAILURES) {
      throw new UpstreamError(`review status temporarily unavailable (simulated flaky upstream, attempt ${row.checks})`);
    }
    if (this.options.clock.now() - row.submitted_at < this.options.reviewMs) return { status: 'Processing' };
    return verdict(url, row.asset_type as AssetType, upstreamId);
  }
}

/** The final verdict for a URL whose review time is over. */
function verdict(url: URL, assetType: AssetType, upstreamId: string): ReviewVerdict {
  const path = url.pathname.toLowerCase();
  if (path.includes('reject')) return { status: 'Failed', reason: 'review rejected: the content did not pass review' };
  const extension = /\.([a-z0-9]+)$/.exec(path)?.[1];
  if (extension) {
    const actual = (Object.keys(EXTENSIONS) as AssetType[]).find((type) => EXTENSIONS[type].includes(extension));
    if (actual && actual !== assetType) {
      return { status: 'Failed', reason: `format mismatch: a .${extension} file is ${actual}, not ${assetType}` };
    }
  }
  return { status: 'Active', resolvedUrl: `asset://${upstreamId}` };
}
