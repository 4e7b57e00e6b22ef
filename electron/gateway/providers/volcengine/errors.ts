// Volcengine's error codes as the portrait library words them: a bad credential, an unknown group, a URL it cannot fetch, throttling (table in docs/relay.md).
/** An error of a Volcengine answer (`ResponseMetadata.Error`), with the HTTP status it came with. */
export interface VolcError {
  status: number;
  code: string;
  message: string;
}

/** Codes (or their start before a dot) that mean the AK/SK is wrong, unknown or not allowed. */
const CREDENTIAL = [
  'InvalidAccessKey',
  'SignatureDoesNotMatch',
  'InvalidAuthorization',
  'MissingAuthenticationToken',
  'InvalidCredential',
  'AccessDenied',
  'Unauthorized',
  'Forbidden',
  'InvalidTimestamp',
];
/** Codes that mean too many requests. */
const THROTTLED = ['RequestLimitExceeded', 'FlowLimitExceeded', 'Throttling', 'TooManyRequests', 'QuotaExceeded.RateLimit'];

/** Whether the error says the group id is unknown or invalid upstream. */
export function isGroupError(error: VolcError): boolean {
  return /group_?id/i.test(error.code);
}

/** The message of a Volcengine error, as stored in `refresh_error` or shown after `Upstream service call failed: `. */
export function volcErrorMessage(error: VolcError): string {
  const code = error.code;
  const head = code.split('.')[0]!;
  const detail = `${code}: ${error.message}`.slice(0, 300);
  if (error.status === 401 || error.status === 403 || CREDENTIAL.includes(head) || CREDENTIAL.includes(code))
    return `bad channel credential (${detail})`;
  if (error.status === 429 || THROTTLED.includes(code) || THROTTLED.includes(head))
    return `the upstream is throttling requests, try again later (${detail})`;
  if (isGroupError(error)) return `invalid upstream group id (${detail})`;
  if (/DownloadFailed|url/i.test(code)) return `URL cannot be fetched (${detail})`;
  return detail;
}
