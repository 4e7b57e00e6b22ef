// An upstream answer's body read straight off its stream, chunk by chunk within the channel's time limits: no async generator, end-of-stream watcher or timer wrapper per call.
import type { Readable } from 'node:stream';
import type { UpstreamTimer } from '../upstream-timer.ts';
import { READS_DONE, UpstreamReads } from './upstream-reads.ts';

/**
 * The chunks of `stream` (each `read()` takes all that is buffered, as Node's own async iterator of a stream does), every
 * wait for the upstream within `timer`'s limits: a read that outlasts one rejects with its UpstreamTimeout. A stream that
 * fails, or closes before its end, rejects the read (with the UpstreamTimeout when a limit ran out); `return()` destroys a
 * stream not read to its end (undici then aborts the request).
 */
export class UpstreamBody extends UpstreamReads {
  private readonly stream: Readable;

  constructor(stream: Readable, timer: UpstreamTimer) {
    super(timer);
    this.stream = stream;
    // `on`, not `once`, for 'end' and 'close' too: each comes once, and `once` wraps its listener in one more closure.
    stream.on('readable', () => {
      if (!this.waiting) return;
      const chunk = stream.read() as Uint8Array | null;
      // Nothing yet (or the end, which 'end' reports next): keep waiting.
      if (chunk !== null) this.answer(chunk);
    });
    stream.on('end', () => {
      this.ended = true;
      this.answer();
    });
    stream.on('error', (error: unknown) => this.fail(error));
    stream.on('close', () => {
      if (!this.ended) this.fail(new Error('the upstream body closed before its end'));
    });
  }

  return(): Promise<IteratorResult<Uint8Array>> {
    if (!this.ended && !this.stream.destroyed) this.stream.destroy();
    return Promise.resolve(READS_DONE);
  }

  protected atHand(): Uint8Array | null {
    return this.stream.destroyed ? null : (this.stream.read() as Uint8Array | null);
  }
}
