// The upstream asset reviewer interface that every provider mode (simulate, relay) implements.
import type { AssetType } from '../../../shared/portrait.ts';

/** What the upstream says of a submitted asset. */
export type ReviewVerdict = { status: 'Processing' } | { status: 'Active'; resolvedUrl: string } | { status: 'Failed'; reason: string };

/** Thrown when the upstream cannot be reached or refuses the call; `message` is safe to show the caller. */
export class UpstreamError extends Error {
  override readonly name = 'UpstreamError';
}

/** Registers assets upstream and reports their review. */
export interface Reviewer {
  /** Submits a URL for review and returns the upstream's id for it. Throws UpstreamError. */
  submit(input: { url: string; assetType: AssetType }): Promise<{ upstreamId: string }>;
  /** Asks the upstream for the current verdict. Throws UpstreamError. */
  check(upstreamId: string): Promise<ReviewVerdict>;
}
