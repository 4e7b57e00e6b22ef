// Cassettes at their documented bounds (docs/record-replay.md#bounds): a 100 MB answer recorded as a blob and streamed back byte for byte, a folder of 10,000 cassettes answered without reading them all, one more refused naming the folder.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { CASSETTE_FORMAT, type HttpCassette } from '../../shared/cassette.ts';
import { cassetteFileName } from '../../shared/cassette-names.ts';
import { MAX_CASSETTES } from '../../electron/gateway/providers/replay/limits.ts';
import { normalRequest } from '../../electron/gateway/providers/replay/normal.ts';
import { memoryChannels } from '../helpers/channels.ts';
import { request, startGateway, tempDirs } from '../helpers/gateway.ts';
import { hostileUpstream } from '../helpers/hostile-upstream.ts';

const dirs = tempDirs();
after(() => dirs.removeAll());

const MB = 1024 * 1024;

/** `size` bytes that are the same on every run and compress badly (xorshift32). */
function payload(size: number): Buffer {
  const words = new Uint32Array(Math.ceil(size / 4));
  let state = 2463534242;
  for (let index = 0; index < words.length; index += 1) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    words[index] = state >>> 0;
  }
  return Buffer.from(words.buffer, 0, size);
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('cassette bounds', () => {
  test('a 100 MB answer is recorded as a blob beside a small cassette and replays byte for byte', async () => {
    const body = payload(100 * MB);
    const upstream = await hostileUpstream((_, response) => {
      response.writeHead(200, { 'content-type': 'audio/wav' });
      let at = 0;
      const next = () => {
        while (at < body.length) {
          const piece = body.subarray(at, at + MB);
          at += piece.length;
          if (!response.write(piece)) return void response.once('drain', next);
        }
        response.end();
      };
      next();
    });
    const cassettes = dirs.fresh();
    const channels = [
      { name: 'big', kind: 'openai' as const, baseUrl: `${upstream.url}/v1`, key: 'sk-upstream-key-0123456789', models: ['*'] },
    ];
    const speak = { model: 'tts-big', voice: 'alloy', input: 'a very long recording', response_format: 'wav' };
    const front = await startGateway({ channels: memoryChannels(channels), record: { dir: cassettes } });
    try {
      const answer = await fetch(`${front.url}/v1/audio/speech`, {
        method: 'POST',
        headers: { authorization: `Bearer ${front.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(speak),
      });
      assert.equal(sha256(Buffer.from(await answer.arrayBuffer())), sha256(body));
    } finally {
      await front.stop();
      await upstream.close();
    }
    let files: string[] = [];
    for (let tries = 0; tries < 3000 && !files.some((file) => file.endsWith('.json')); tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      files = readdirSync(cassettes);
    }
    const cassetteFile = files.find((file) => file.endsWith('.json'))!;
    const blobFile = files.find((file) => file.endsWith('.bin'))!;
    assert.ok(statSync(path.join(cassettes, cassetteFile)).size < MB, 'the cassette itself stays small');
    assert.equal(statSync(path.join(cassettes, blobFile)).size, body.length);
    const cassette = JSON.parse(readFileSync(path.join(cassettes, cassetteFile), 'utf8')) as HttpCassette;
    assert.deepEqual(cassette.response.body, { blob: { file: blobFile, bytes: body.length, sha256: sha256(body) } });

    const replay = await startGateway({ replay: { dir: cassettes, miss: 'error', speed: 0 } });
    try {
      const again = await fetch(`${replay.url}/v1/audio/speech`, {
        method: 'POST',
        headers: { authorization: `Bearer ${replay.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(speak),
      });
      assert.equal(again.status, 200);
      assert.equal(again.headers.get('content-type'), 'audio/wav');
      assert.equal(sha256(Buffer.from(await again.arrayBuffer())), sha256(body));
    } finally {
      await replay.stop();
    }
  });

  test('a folder of 10,000 cassettes answers any of them; a miss names the closest; one more cassette refuses the start', async () => {
    const cassettes = dirs.fresh();
    const cassetteOf = (index: number) => {
      const body = { model: 'embed-bulk', input: `text number ${index}` };
      const recorded = normalRequest({
        protocol: 'openai',
        method: 'POST',
        path: '/v1/embeddings',
        endpoint: '/v1/embeddings',
        model: null,
        body,
        stream: false,
      });
      const answer = {
        object: 'list',
        data: [{ object: 'embedding', index: 0, embedding: [index, 0.5] }],
        model: 'embed-bulk',
        usage: { prompt_tokens: 3, total_tokens: 3 },
      };
      const cassette: HttpCassette = {
        format: CASSETTE_FORMAT,
        kind: 'http',
        recording: { recordedAt: '2026-11-26T10:00:00.000+00:00', mode: 'relay', channel: 'bulk', protocol: 'openai' },
        request: recorded,
        response: { status: 200, headers: { 'content-type': 'application/json' }, body: { text: JSON.stringify(answer) }, durationMs: 5 },
        usage: { inputTokens: 3, outputTokens: 0 },
        sequence: 1,
      };
      return [cassetteFileName(recorded.key, 'embed-bulk', body.input, 1), JSON.stringify(cassette, null, 2)] as const;
    };
    for (let index = 0; index < MAX_CASSETTES; index += 1) {
      const [file, text] = cassetteOf(index);
      writeFileSync(path.join(cassettes, file), text);
    }
    const replay = await startGateway({ replay: { dir: cassettes, miss: 'error', speed: 0 } });
    try {
      const embed = (input: string) =>
        request(`${replay.url}/v1/embeddings`, 'POST', { token: replay.token, body: { model: 'embed-bulk', input } });
      const hit = await embed('text number 7777');
      assert.equal(hit.status, 200);
      assert.deepEqual(hit.body.data[0].embedding, [7777, 0.5]);
      const miss = await embed('text number 10000000');
      assert.equal(miss.status, 404);
      assert.match(
        miss.body.error.message,
        /The closest is embed-bulk-text-number-\d+\.[0-9a-f]{16}\.json; the first field that differs is body\.input/,
      );
    } finally {
      await replay.stop();
    }
    const [file, text] = cassetteOf(MAX_CASSETTES);
    writeFileSync(path.join(cassettes, file), text);
    await assert.rejects(
      startGateway({ replay: { dir: cassettes, miss: 'error' } }),
      (error: unknown) =>
        error instanceof Error && error.message.includes(`holds ${MAX_CASSETTES + 1} cassettes, over the ${MAX_CASSETTES}`),
    );
  });
});
