// Recording through an upstream that echoes its channel key in every encoding (headers, JSON bodies, split SSE and Gemini array streams, a binary body, realtime frames and close reason): no cassette or blob holds the key in any encoding.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import type { Cassette } from '../../shared/cassette.ts';
import { memoryChannels } from '../helpers/channels.ts';
import { echoingAnswer, echoingRealtime, KEY } from '../helpers/echoing-upstream.ts';
import { eventually } from '../helpers/eventually.ts';
import { startGateway, tempDirs } from '../helpers/gateway.ts';
import { hostileUpstream } from '../helpers/hostile-upstream.ts';
import { openRaw } from '../helpers/realtime.ts';
import { revealingFiles } from '../helpers/secret-encodings.ts';

const dirs = tempDirs();
after(() => dirs.removeAll());

describe('recording through an upstream that echoes its key', { timeout: 120_000 }, () => {
  test('every protocol, stream and binary body, and a realtime session: no file of the folder reveals the key', async () => {
    const upstream = await hostileUpstream(echoingAnswer);
    const realtime = await echoingRealtime();
    const cassettes = dirs.fresh();
    const channel = { key: KEY, baseUrl: upstream.url };
    const gw = await startGateway({
      channels: memoryChannels([
        { ...channel, name: 'openai', kind: 'openai', baseUrl: `${upstream.url}/v1`, models: ['oa-ok', 'oa-400', 'tts-ok'] },
        { ...channel, name: 'anthropic', kind: 'anthropic', models: ['an-ok', 'an-400'] },
        { ...channel, name: 'gemini', kind: 'gemini', models: ['gm-ok', 'gm-400'] },
        { ...channel, name: 'realtime', kind: 'openai', baseUrl: `${realtime.url}/v1`, models: ['rt-model'] },
      ]),
      record: { dir: cassettes },
    });
    const calls: [string, unknown][] = [];
    const chat = (model: string, stream = false) => ({ model, stream, messages: [{ role: 'user', content: 'hi' }] });
    const message = (model: string, stream = false) => ({ model, stream, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
    const contents = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };
    calls.push(
      ['/v1/chat/completions', chat('oa-ok')],
      ['/v1/chat/completions', chat('oa-ok', true)],
      ['/v1/chat/completions', chat('oa-400')],
      ['/v1/messages', message('an-ok')],
      ['/v1/messages', message('an-ok', true)],
      ['/v1/messages', message('an-400')],
      ['/v1beta/models/gm-ok:generateContent', contents],
      ['/v1beta/models/gm-ok:streamGenerateContent?alt=sse', contents],
      ['/v1beta/models/gm-ok:streamGenerateContent', contents],
      ['/v1beta/models/gm-400:generateContent', contents],
      ['/v1/audio/speech', { model: 'tts-ok', voice: 'alloy', input: 'hello', response_format: 'wav' }],
    );
    try {
      for (const [route, body] of calls) {
        const answer = await fetch(`${gw.url}${route}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${gw.token}`, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
          body: JSON.stringify(body),
        });
        await answer.arrayBuffer();
      }
      const socket = await openRaw(`${gw.url.replace('http', 'ws')}/v1/realtime?model=rt-model`, {
        headers: { authorization: `Bearer ${gw.token}` },
      });
      assert.equal((await socket.closing).code, 4000);
      await eventually(
        () => readdirSync(cassettes).filter((file) => file.endsWith('.json')).length === calls.length + 1,
        'every cassette saved',
      );
    } finally {
      await gw.stop();
      await upstream.close();
      await realtime.stop();
    }
    const kinds = readdirSync(cassettes)
      .filter((file) => file.endsWith('.json'))
      .map((file) => (JSON.parse(readFileSync(path.join(cassettes, file), 'utf8')) as Cassette).kind);
    assert.equal(kinds.filter((kind) => kind === 'realtime').length, 1, 'the realtime session is a cassette');
    assert.ok(
      readdirSync(cassettes).some((file) => file.startsWith('blob-')),
      'the binary answer is a blob beside its cassette',
    );
    assert.deepEqual(revealingFiles(cassettes, KEY), []);
  });
});
