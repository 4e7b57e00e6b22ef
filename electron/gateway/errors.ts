// The one error type services throw; each route family renders it in its own protocol's shape.

/** What went wrong, independent of any protocol. */
export type ErrorKind =
  | 'invalid_request'
  | 'not_found'
  | 'unauthorized'
  | 'forbidden'
  | 'upstream_failed'
  | 'payload_too_large'
  | 'rate_limited'
  | 'unavailable'
  | 'overloaded'
  | 'internal'
  | 'not_implemented';

/** HTTP status of each kind for protocols that use HTTP statuses (the portrait envelope uses 200 for business errors). */
export const HTTP_STATUS: Record<ErrorKind, number> = {
  invalid_request: 400,
  not_found: 404,
  unauthorized: 401,
  forbidden: 403,
  upstream_failed: 502,
  payload_too_large: 413,
  rate_limited: 429,
  unavailable: 503,
  overloaded: 529,
  internal: 500,
  not_implemented: 501,
};

/** A failure with a message that is safe and useful to show the caller. */
export class GatewayError extends Error {
  override readonly name = 'GatewayError';
  readonly kind: ErrorKind;
  /** The request field at fault, when there is one. */
  readonly param: string | null;
  /** The HTTP status to answer with when it is not the kind's own (an upstream's status kept through translation). */
  readonly status: number | undefined;
  /** An answer scripted by a fixture: extra headers (`Retry-After`), and the protocol's error type and code to show instead of the kind's. */
  readonly scripted: ScriptedErrorParts | undefined;
  constructor(kind: ErrorKind, message: string, param: string | null = null, status?: number, scripted?: ScriptedErrorParts) {
    super(message);
    this.kind = kind;
    this.param = param;
    this.status = status;
    this.scripted = scripted;
  }
}

/**
 * A failure of the gateway's own configuration (a relayed channel whose key the upstream refused): no retry of the same
 * call can fix it, whatever its status, so its answer says `x-should-retry: false`.
 */
export class ConfigurationError extends GatewayError {}

/** What a fixture may set on an error answer besides its status and message. */
export interface ScriptedErrorParts {
  headers?: Record<string, string>;
  type?: string;
  code?: string;
}

export const invalid = (message: string, param: string | null = null) => new GatewayError('invalid_request', message, param);
export const notFound = (message: string, param: string | null = null) => new GatewayError('not_found', message, param);

/** Thrown by a provider when its upstream cannot be reached or refuses the call; `message` is safe to show the caller. */
export class UpstreamError extends Error {
  override readonly name = 'UpstreamError';
}

/** An UpstreamError saying the upstream no longer knows the group an asset was sent to (removed there): the group is created again next time. */
export class UpstreamGroupMissing extends UpstreamError {}
