// Integration tests of malformed multipart bodies on every multipart endpoint: each is a 400 in the OpenAI error shape, never a 500, and the gateway keeps answering.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MAX_BOUNDARY_LENGTH, MAX_FORM_FIELD_BYTES, MAX_FORM_PARTS } from '../../electron/gateway/server/multipart.ts';
import { startGateway, type TestGateway } from '../helpers/gateway.ts';

const MULTIPART_PATHS = ['/v1/images/edits', '/v1/audio/transcriptions', '/v1/audio/translations'];

/** A well-formed form with a `model` field and a small `file` part, delimited by `boundary`. */
function form(boundary: string): string {
  return [
    `--${boundary}`,
    'Content-Disposition: form-data; name="model"',
    '',
    'sim-whisper',
    `--${boundary}`,
    'Content-Disposition: form-data; name="file"; filename="a.wav"',
    'Content-Type: audio/wav',
    '',
    'RIFF',
    `--${boundary}--`,
    '',
  ].join('\r\n');
}

const long = 'b'.repeat(1000);
/** [what is wrong, content type, body]. */
const MALFORMED: Array<[string, string, string]> = [
  ['no boundary', 'multipart/form-data', form('x')],
  ['an empty boundary', 'multipart/form-data; boundary=', form('x')],
  ['an empty quoted boundary', 'multipart/form-data; boundary=""', form('x')],
  ['a 1,000-character boundary', `multipart/form-data; boundary=${long}`, form(long)],
  [
    `a boundary one past ${MAX_BOUNDARY_LENGTH} characters`,
    `multipart/form-data; boundary=${'c'.repeat(MAX_BOUNDARY_LENGTH + 1)}`,
    form('c'.repeat(MAX_BOUNDARY_LENGTH + 1)),
  ],
  ['a truncated part header', 'multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-da'],
  ['a header with no end', 'multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="model"\r\n'],
  ['a truncated file part', 'multipart/form-data; boundary=x', form('x').slice(0, form('x').indexOf('RIFF') + 2)],
  ['no closing delimiter', 'multipart/form-data; boundary=x', form('x').replace('--x--\r\n', '')],
  ['an empty body', 'multipart/form-data; boundary=x', ''],
  ['a body of another boundary', 'multipart/form-data; boundary=x', form('y')],
  ['junk', 'multipart/form-data; boundary=x', '\u0000\u00ff--x\r\n\r\n\r\n--x'],
];

describe('malformed multipart bodies', () => {
  let server: TestGateway;
  before(async () => {
    server = await startGateway();
  });
  after(() => server.stop());

  for (const path of MULTIPART_PATHS) {
    test(`${path}: each malformed body is a 400 invalid_request_error`, async () => {
      for (const [label, contentType, body] of MALFORMED) {
        const response = await fetch(`${server.url}${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${server.token}`, 'content-type': contentType },
          body,
        });
        const answer = (await response.json()) as { error: { type: string; message: string } };
        assert.equal(response.status, 400, `${label}: ${JSON.stringify(answer)}`);
        assert.equal(answer.error.type, 'invalid_request_error', label);
        assert.equal(typeof answer.error.message, 'string', label);
      }
      assert.equal((await fetch(`${server.url}/healthz`)).status, 200);
    });
  }

  test(`a boundary of ${MAX_BOUNDARY_LENGTH} characters, quoted or not, is read`, async () => {
    const boundary = 'd'.repeat(MAX_BOUNDARY_LENGTH);
    for (const contentType of [`multipart/form-data; boundary=${boundary}`, `multipart/form-data; boundary="${boundary}"`]) {
      const response = await fetch(`${server.url}/v1/audio/transcriptions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.token}`, 'content-type': contentType },
        body: form(boundary),
      });
      assert.equal(response.status, 200, await response.text());
    }
  });

  test(`a form of more than ${MAX_FORM_PARTS} parts, or with a text field over ${MAX_FORM_FIELD_BYTES} bytes, is a 413 and is not read further`, async () => {
    const boundary = 'x';
    const field = (name: string, value: string) =>
      [`--${boundary}`, `Content-Disposition: form-data; name="${name}"`, '', value].join('\r\n');
    const many = [...Array.from({ length: MAX_FORM_PARTS + 1 }, (_, i) => field(`extra${i}`, 'v')), `--${boundary}--`, ''].join('\r\n');
    const huge = [field('model', 'sim-whisper'), field('prompt', 'p'.repeat(MAX_FORM_FIELD_BYTES + 1)), `--${boundary}--`, ''].join('\r\n');
    for (const [label, body, message] of [
      ['many parts', many, /at most 64 parts/],
      ['a huge field', huge, /Form field 'prompt' is longer than/],
    ] as const) {
      for (const path of MULTIPART_PATHS) {
        const response = await fetch(`${server.url}${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${server.token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
          body,
        });
        const answer = (await response.json()) as { error: { type: string; message: string } };
        assert.equal(response.status, 413, `${label} on ${path}: ${JSON.stringify(answer)}`);
        assert.match(answer.error.message, message, `${label} on ${path}`);
      }
    }
  });
});
