// undici's request API (`Dispatcher.request`) through undici's own request handler with one change: the request's abort function is made outside the handler's method, so a finished call's objects die young.
import { createRequire } from 'node:module';
import type { Dispatcher } from 'undici';

/** The fields of undici's `RequestHandler` (lib/api/api-request.js; undici is pinned in package.json) its `onRequestStart` sets. */
interface RequestHandlerFields {
  reason: unknown;
  callback: unknown;
  controller: unknown;
  abort: ((reason?: unknown) => void) | null;
  context: unknown;
}
type Callback = (error: Error | null, data: Dispatcher.ResponseData) => void;
type RequestHandlerClass = (new (
  options: Dispatcher.RequestOptions,
  callback: Callback,
) => RequestHandlerFields & Dispatcher.DispatchHandler) & { prototype: Dispatcher.DispatchHandler };

interface Controller {
  abort(reason?: unknown): void;
}

/**
 * The request's abort function. undici writes it straight into a property in `onRequestStart`
 * (`this.abort = (reason) => controller.abort(reason)`), and V8 makes such a function in the old generation: through its
 * context it then keeps the whole call (the request, its handler, the answer's stream) alive past every young-generation
 * collection until a full one. Made here and returned, it is made young and dies with the call.
 */
function abortOf(controller: Controller): (reason?: unknown) => void {
  return (reason) => controller.abort(reason);
}

/** undici's `RequestHandler` with `onRequestStart` as undici 8.12's but for where the abort function is made. */
function youngAbortHandler(RequestHandler: RequestHandlerClass): RequestHandlerClass {
  return class YoungAbortRequestHandler extends RequestHandler {
    override onRequestStart(controller: Controller, context: unknown): void {
      if (this.reason) {
        controller.abort(this.reason);
        return;
      }
      if (!this.callback) throw new Error('undici request handler started without its callback');
      this.controller = controller;
      this.abort = abortOf(controller);
      this.context = context;
    }
  };
}

/** Loaded at the first relayed call, as undici itself is (upstream-fetch.ts), not at start-up. */
let Handler: RequestHandlerClass | undefined;

function handlerClass(): RequestHandlerClass {
  if (Handler === undefined) {
    const { RequestHandler } = createRequire(import.meta.url)('undici/lib/api/api-request.js') as { RequestHandler: RequestHandlerClass };
    // Overridden only while undici's method is the one this module's copies (undici 8.12's): another undici keeps its own.
    const copied = String(RequestHandler.prototype.onRequestStart).includes('this.abort = (reason) => controller.abort(reason)');
    Handler = copied ? youngAbortHandler(RequestHandler) : RequestHandler;
  }
  return Handler;
}

/** What `dispatcher.request(options)` answers (and throws), through the handler above. */
export function requestThrough(dispatcher: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData> {
  return new Promise((resolve, reject) => {
    const callback: Callback = (error, data) => (error ? reject(error) : resolve(data));
    try {
      dispatcher.dispatch(options, new (handlerClass())(options, callback));
    } catch (error) {
      reject(error as Error);
    }
  });
}
