// The error a relayed stream ends with once its upstream passes a cap: one event (or JSON array element) too long, or the whole stream too long.
import { MAX_SSE_EVENT_BYTES, MAX_SSE_STREAM_BYTES } from '../../../../shared/sse-reader.ts';
import { GatewayError } from '../../errors.ts';

/** Which cap an upstream's stream passed. */
export type StreamCap = 'event' | 'stream';

/** The upstream failure the caller's stream ends with (its protocol's error event) after `cap` was passed; the upstream is closed. */
export function streamCapError(cap: StreamCap): GatewayError {
  return cap === 'event'
    ? new GatewayError('upstream_failed', `The upstream sent a stream event over ${mib(MAX_SSE_EVENT_BYTES)} MiB; the stream was cut.`)
    : new GatewayError('upstream_failed', `The upstream's stream passed ${mib(MAX_SSE_STREAM_BYTES)} MiB; the stream was cut.`);
}

function mib(bytes: number): number {
  return bytes / (1024 * 1024);
}
