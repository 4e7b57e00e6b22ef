// Unit tests of the journal's response tap over a real HTTP response: a kept render ended whole through endGivenAway is recorded by its mark alone, and anything else written (a chunk before it, or the same bytes ended plainly) is recorded as its bytes; the client gets the same bytes either way.
import assert from 'node:assert/strict';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import type { JournalBody } from '../../../shared/journal.ts';
import { endGivenAway, ResponseTap } from '../../../electron/gateway/server/response-tap.ts';

/** A render's bytes (long enough to go to the journal as bytes) in storage of their own, and its mark. */
function render() {
  const text = `data: ${'{"x":"é"}'.repeat(600)}\n\n`;
  const bytes = Buffer.alloc(Buffer.byteLength(text));
  bytes.write(text);
  const layout = { bytes: Buffer.from(bytes), holes: [], identityBytes: 0 };
  return { bytes, text, mark: { id: 1, identity: '', layout } };
}

/** Serves one request with `write`, tapped; answers what the client received and what the tap recorded once the response closed. */
async function served(write: (raw: ServerResponse) => void): Promise<{ received: string; body: JournalBody }> {
  let recorded: Promise<JournalBody> | undefined;
  const server = createServer((_request, raw) => {
    const tap = new ResponseTap(raw, 0);
    recorded = new Promise((resolve) => raw.on('close', () => resolve(tap.body('text/event-stream'))));
    raw.writeHead(200, { 'content-type': 'text/event-stream' });
    write(raw);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const received = await response.text();
    return { received, body: await recorded! };
  } finally {
    server.close();
  }
}

test('a kept render ended whole through endGivenAway is recorded by its mark, without its bytes', async () => {
  const { bytes, text, mark } = render();
  const { received, body } = await served((raw) => endGivenAway(raw, bytes, mark));
  assert.equal(received, text);
  assert.equal(body.kept, mark);
  assert.equal(body.utf8, undefined);
  assert.equal(body.bytes, bytes.length);
});

test('a chunk written before the render, or the render ended plainly: recorded as the bytes written', async () => {
  const first = render();
  const before = await served((raw) => {
    raw.write('data: {}\n\n');
    endGivenAway(raw, first.bytes, first.mark);
  });
  assert.equal(before.received, `data: {}\n\n${first.text}`);
  assert.equal(before.body.kept, undefined);
  assert.equal(Buffer.from(before.body.utf8!).toString(), before.received);

  const second = render();
  const plain = await served((raw) => raw.end(second.bytes));
  assert.equal(plain.body.kept, undefined);
  assert.equal(Buffer.from(plain.body.utf8!).toString(), second.text);

  // Bytes given away but told of no render: moved to the journal as bytes.
  const third = render();
  const untold = await served((raw) => endGivenAway(raw, third.bytes));
  assert.equal(untold.body.kept, undefined);
  assert.equal(Buffer.from(untold.body.utf8!).toString(), third.text);
});
