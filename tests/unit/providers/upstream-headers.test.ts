// Unit tests of the relay's view of an upstream answer's headers: it reads undici's parsed fields exactly as a WHATWG Headers copy of them would.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { UpstreamHeaders } from '../../../electron/gateway/providers/relay/upstream-headers.ts';

/** Fields as undici's request API parses an answer: names in lower case, a repeated header as an array. */
const fields = () => ({
  'x-request-id': 'req_1',
  'content-type': 'application/json; charset=utf-8',
  'openai-processing-ms': ' 12 ',
  'x-ratelimit-remaining-requests': ['99', '98'],
  'retry-after': '\t2',
  'content-length': '345',
});

/** The same fields copied into a WHATWG Headers, as the relay used to. */
function whatwg(raw: Record<string, string | string[]>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  return headers;
}

test('get, has and forEach answer as a WHATWG Headers of the same fields: values joined and trimmed, names in order', () => {
  const view = new UpstreamHeaders(fields());
  const reference = whatwg(fields());
  for (const name of [...Object.keys(fields()), 'absent']) {
    assert.equal(view.get(name), reference.get(name), name);
    assert.equal(view.has(name), reference.has(name), name);
  }
  const seen = (headers: { forEach(visit: (value: string, name: string) => void): void }) => {
    const pairs: [string, string][] = [];
    headers.forEach((value, name) => pairs.push([name, value]));
    return pairs;
  };
  assert.deepEqual(seen(view), seen(reference));
  assert.equal(view.get('x-ratelimit-remaining-requests'), '99, 98');
  assert.equal(view.get('retry-after'), '2');
});

test('delete removes a header from every reading', () => {
  const view = new UpstreamHeaders(fields());
  view.delete('content-length');
  assert.equal(view.has('content-length'), false);
  assert.equal(view.get('content-length'), null);
  const names: string[] = [];
  view.forEach((_value, name) => names.push(name));
  assert.equal(names.includes('content-length'), false);
});

test('forEachMatching visits, in the same order, the headers forEach visits whose name matches', () => {
  const view = new UpstreamHeaders(fields());
  const all: [string, string][] = [];
  view.forEach((value, name) => all.push([name, value]));
  const matching: [string, string][] = [];
  view.forEachMatching(/^(x-|retry)/, (value, name) => matching.push([name, value]));
  assert.deepEqual(
    matching,
    all.filter(([name]) => /^(x-|retry)/.test(name)),
  );
  assert.deepEqual(
    matching.map(([name]) => name),
    ['retry-after', 'x-ratelimit-remaining-requests', 'x-request-id'],
  );
});
