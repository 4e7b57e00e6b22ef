// The protocol of a request URL, and the portrait check the fault hook makes on every call without the other families' checks; a request's path, split from its query once.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FastifyRequest } from 'fastify';
import { isPortraitUrl, pathOf, protocolOf, queryOf, searchOf } from '../../../electron/gateway/server/protocol.ts';

const urls = [
  '/v1/portrait',
  '/v1/portrait/',
  '/v1/portrait/groups',
  '/v1/portrait?x=1',
  '/v1/portrait/groups?page=2',
  '/v1/portraits',
  '/v1/portraitx/groups',
  '/v1/portrai',
  '/v1/chat/completions',
  '/v1/chat/completions?q=/v1/portrait/',
  '/v1/messages',
  '/v1/messages?beta=true',
  '/v1beta/models/gemini-2.0-flash:generateContent?key=k',
  '/v1/models/gemini-2.0-flash:streamGenerateContent?alt=sse',
  '/v1/models',
  '/',
];

test('each URL has the protocol of its family, whatever its query', () => {
  assert.deepEqual(
    urls.map((url) => protocolOf(url)),
    [
      'portrait',
      'portrait',
      'portrait',
      'portrait',
      'portrait',
      'openai',
      'openai',
      'openai',
      'openai',
      'openai',
      'anthropic',
      'anthropic',
      'gemini',
      'gemini',
      'openai',
      'openai',
    ],
  );
});

test('isPortraitUrl agrees with protocolOf on every URL', () => {
  for (const url of urls) assert.equal(isPortraitUrl(url), protocolOf(url) === 'portrait', url);
});

test("a request's path is split from its URL once, and with its query makes the URL again", () => {
  for (const url of urls) {
    let reads = 0;
    const request = {
      urlPath: undefined,
      get url() {
        reads += 1;
        return url;
      },
    } as unknown as FastifyRequest;
    const path = pathOf(request);
    assert.equal(path, url.split('?', 1)[0], url);
    assert.equal(pathOf(request), path);
    assert.equal(reads, 1, `${url}: the URL is read once for the path, however often the path is asked for`);
    assert.equal(path + queryOf(request), url);
    assert.equal(protocolOf(path), protocolOf(url), url);
  }
});

test("a request's search is its query without the '?', as url.split('?', 2) gives it", () => {
  for (const url of [...urls, '/v1/models?', '/v1beta/models/g:streamGenerateContent?alt=sse?key=x', '/v1/x?a=1&b=2']) {
    const request = { urlPath: undefined, url } as unknown as FastifyRequest;
    assert.equal(searchOf(request), url.split('?', 2)[1] ?? '', url);
  }
});
