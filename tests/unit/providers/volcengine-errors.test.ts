// Unit tests of the Volcengine error wording: credentials, throttling, group ids and URLs as the portrait library names them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { volcErrorMessage } from '../../../electron/gateway/providers/volcengine/errors.ts';

test('each kind of Volcengine error reads as the portrait library words it, with the code and message kept', () => {
  const cases: [number, string, string][] = [
    [401, 'SignatureDoesNotMatch', 'bad channel credential (SignatureDoesNotMatch: m)'],
    [403, 'AccessDenied', 'bad channel credential (AccessDenied: m)'],
    [400, 'InvalidAccessKey', 'bad channel credential (InvalidAccessKey: m)'],
    [429, 'Whatever', 'the upstream is throttling requests, try again later (Whatever: m)'],
    [400, 'RequestLimitExceeded', 'the upstream is throttling requests, try again later (RequestLimitExceeded: m)'],
    [404, 'NotFound.group_id', 'invalid upstream group id (NotFound.group_id: m)'],
    [400, 'InvalidParameter.GroupId', 'invalid upstream group id (InvalidParameter.GroupId: m)'],
    [400, 'InvalidParameter.DownloadFailed', 'URL cannot be fetched (InvalidParameter.DownloadFailed: m)'],
    [500, 'InternalError', 'InternalError: m'],
  ];
  for (const [status, code, expected] of cases) assert.equal(volcErrorMessage({ status, code, message: 'm' }), expected);
});
