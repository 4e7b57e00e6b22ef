// Calls of a `volcengine` channel: the Ark OpenAPI asset actions (`POST /?Action=…&Version=2024-01-01`), signed with the account's AK/SK for service `ark`.
import { UpstreamError, UpstreamGroupMissing } from '../../errors.ts';
import { signedJsonHeaders, splitAccessKey } from '../../protocols/volcengine/signature.ts';
import { jsonOf, scrub, serviceFetch } from '../service-http.ts';
import type { ServiceChannel } from '../types.ts';
import { isGroupError, volcErrorMessage } from './errors.ts';

/** The API version of the Ark asset actions. */
export const ARK_VERSION = '2024-01-01';
/** The service name requests are signed for. */
export const ARK_SERVICE = 'ark';

/** The `AK:SK` of a channel, split; an UpstreamError when it is missing or malformed. */
function credentialsOf(channel: ServiceChannel): { accessKeyId: string; secretAccessKey: string } {
  const pair = splitAccessKey(channel.key);
  if (!pair) throw new UpstreamError(`bad channel credential: channel "${channel.name}" needs its key as AK:SK`);
  return pair;
}

/** Calls `action` with a JSON body and returns its `Result`; an error answer becomes an UpstreamError worded by volcErrorMessage. */
export async function arkCall(
  channel: ServiceChannel,
  action: string,
  body: Record<string, unknown>,
  now: () => Date,
): Promise<Record<string, unknown>> {
  const url = new URL(channel.baseUrl.endsWith('/') ? channel.baseUrl : `${channel.baseUrl}/`);
  url.searchParams.set('Action', action);
  url.searchParams.set('Version', ARK_VERSION);
  const text = JSON.stringify(body);
  const headers = {
    ...channel.headers,
    ...signedJsonHeaders(url, text, { ...credentialsOf(channel), region: channel.region, service: ARK_SERVICE }, now()),
  };
  const answer = await serviceFetch({
    url: url.href,
    method: 'POST',
    headers,
    body: text,
    timeoutMs: channel.timeoutMs,
    idleTimeoutMs: channel.idleTimeoutMs,
    deadlineMs: channel.deadlineMs,
    secret: channel.key,
  });
  const reply = jsonOf(answer) as { ResponseMetadata?: { Error?: { Code?: unknown; Message?: unknown } }; Result?: unknown } | undefined;
  const error = reply?.ResponseMetadata?.Error;
  if (error && typeof error.Code === 'string' && error.Code !== '') {
    const volcError = { status: answer.status, code: error.Code, message: typeof error.Message === 'string' ? error.Message : '' };
    const message = scrub(volcErrorMessage(volcError), channel.key);
    throw isGroupError(volcError) ? new UpstreamGroupMissing(message) : new UpstreamError(message);
  }
  if (answer.status !== 200 || !reply || reply.Result === null || typeof reply.Result !== 'object') {
    throw new UpstreamError(
      scrub(volcErrorMessage({ status: answer.status, code: `HTTP${answer.status}`, message: 'no Result in the answer' }), channel.key),
    );
  }
  return reply.Result as Record<string, unknown>;
}
