// Unit tests of the Volcengine request signature against the provider's published example (BytePlus, the same algorithm) and its documented steps.
import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { test } from 'node:test';
import {
  canonicalRequest,
  signedJsonHeaders,
  signingKey,
  signRequest,
  splitAccessKey,
  stringToSign,
  volcDate,
} from '../../../electron/gateway/protocols/volcengine/signature.ts';

const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
/** The published example: `GET /?Action=ListUsers&Version=2018-01-01&Limit=10&Offset=0` to IAM on 2020-12-30, region ap-singapore-1. */
const example = {
  method: 'GET',
  url: new URL('https://iam.byteplusapi.com/?Action=ListUsers&Version=2018-01-01&Limit=10&Offset=0'),
  headers: {
    'content-type': 'application/x-www-form-urlencoded; charset=utf-8',
    host: 'iam.byteplusapi.com',
    'x-content-sha256': EMPTY_SHA256,
    'x-date': '20201230T081805Z',
  },
  body: '',
};

test('the canonical request of the published example is the published one, and so is its hash', () => {
  const canonical = canonicalRequest(example);
  assert.equal(
    canonical,
    [
      'GET',
      '/',
      'Action=ListUsers&Limit=10&Offset=0&Version=2018-01-01',
      'content-type:application/x-www-form-urlencoded; charset=utf-8',
      'host:iam.byteplusapi.com',
      `x-content-sha256:${EMPTY_SHA256}`,
      'x-date:20201230T081805Z',
      '',
      'content-type;host;x-content-sha256;x-date',
      EMPTY_SHA256,
    ].join('\n'),
  );
  assert.equal(createHash('sha256').update(canonical).digest('hex'), '4809ff4a3260bb6714f750191275cfcf0c16466951fcfd99187e69644b6ae020');
});

test('the string to sign of the published example is the published one', () => {
  assert.equal(
    stringToSign(canonicalRequest(example), '20201230T081805Z', '20201230/ap-singapore-1/iam/request'),
    'HMAC-SHA256\n20201230T081805Z\n20201230/ap-singapore-1/iam/request\n4809ff4a3260bb6714f750191275cfcf0c16466951fcfd99187e69644b6ae020',
  );
});

test('the signature is HMAC(kSigning, StringToSign) with kSigning = HMAC(HMAC(HMAC(HMAC(SK, day), region), service), "request")', () => {
  const secret = 'TnpCak5XWXpZV1U0WkRaaE5ERmxaR0ZpTmpjeVkyUXlZek0wTWpJMU1qWQ==';
  const h = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();
  const key = h(h(h(h(secret, '20201230'), 'ap-singapore-1'), 'iam'), 'request');
  assert.deepEqual(signingKey(secret, '20201230', 'ap-singapore-1', 'iam'), key);
  const { signature, authorization } = signRequest(example, {
    accessKeyId: 'AKLTMjI2ODVlYzI3ZGY1NGU4ZjhjYWRjMTlmNTM5OTZkYzE',
    secretAccessKey: secret,
    region: 'ap-singapore-1',
    service: 'iam',
  });
  const expected = createHmac('sha256', key)
    .update(
      'HMAC-SHA256\n20201230T081805Z\n20201230/ap-singapore-1/iam/request\n4809ff4a3260bb6714f750191275cfcf0c16466951fcfd99187e69644b6ae020',
    )
    .digest('hex');
  assert.equal(signature, expected);
  assert.equal(
    authorization,
    `HMAC-SHA256 Credential=AKLTMjI2ODVlYzI3ZGY1NGU4ZjhjYWRjMTlmNTM5OTZkYzE/20201230/ap-singapore-1/iam/request, SignedHeaders=content-type;host;x-content-sha256;x-date, Signature=${expected}`,
  );
});

test('query names and values are RFC 3986 encoded and sorted; a JSON POST carries its body hash and date', () => {
  const url = new URL('https://open.volcengineapi.com/?Version=2024-01-01&Action=GetAsset&b=a%20b*&a=~x');
  assert.equal(
    canonicalRequest({ method: 'post', url, headers: {}, body: '' }).split('\n')[2],
    'Action=GetAsset&Version=2024-01-01&a=~x&b=a%20b%2A',
  );
  assert.equal(volcDate(new Date('2026-11-23T21:05:09.123Z')), '20261123T210509Z');
  const headers = signedJsonHeaders(
    url,
    '{}',
    { accessKeyId: 'AK', secretAccessKey: 'SK', region: 'cn-beijing', service: 'ark' },
    new Date(0),
  );
  assert.equal(headers['x-content-sha256'], createHash('sha256').update('{}').digest('hex'));
  assert.equal(headers['x-date'], '19700101T000000Z');
  assert.match(
    headers['authorization']!,
    /^HMAC-SHA256 Credential=AK\/19700101\/cn-beijing\/ark\/request, SignedHeaders=content-type;host;x-content-sha256;x-date, Signature=[0-9a-f]{64}$/,
  );
});

test('a key is AK:SK split at its first colon; anything else is not one', () => {
  assert.deepEqual(splitAccessKey('AK:S:K'), { accessKeyId: 'AK', secretAccessKey: 'S:K' });
  for (const bad of [null, '', 'AKSK', ':SK', 'AK:']) assert.equal(splitAccessKey(bad), undefined);
});
