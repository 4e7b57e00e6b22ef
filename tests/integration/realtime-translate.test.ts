// Integration tests of realtime sessions for models only Anthropic or Gemini channels serve: the openai SDK's realtime client on a front gateway, each text response a chat call translated to an upstream Gatehouse.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { gatewayBefore, hostileUpstream } from '../helpers/hostile-upstream.ts';
import { openRaw, type RawClient } from '../helpers/realtime.ts';
import { journalEntries, settle, usageRows } from '../helpers/relay.ts';
import { startTranslationRig, WEATHER, type TranslationRig } from '../helpers/translation.ts';

const ASK = 'Tell me about lighthouses on rocky coasts.';

for (const wire of ['anthropic', 'gemini'] as const) {
  describe(`a realtime session for a model only ${wire} channels serve`, { timeout: 60_000 }, () => {
    let rig: TranslationRig;
    before(async () => {
      rig = await startTranslationRig(wire);
    });
    after(async () => rig.stop());

    const connect = async (model: string) => {
      const rt = await openRaw(`${rig.front.url.replace('http', 'ws')}/v1/realtime?model=${model}`, {
        headers: { authorization: `Bearer ${rig.front.token}` },
      });
      return { rt, log: rt };
    };
    const say = (rt: RawClient, text: string) =>
      rt.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] } });
    const textOf = (events: { type: string; delta?: string }[], from: number) =>
      events
        .slice(from)
        .filter((event) => event.type === 'response.output_text.delta')
        .map((event) => event.delta)
        .join('');

    test('answers text turns with the upstream model’s words, billed by the upstream’s usage', async () => {
      const rowsBefore = usageRows(rig.front).length;
      const { rt, log } = await connect('tr-chat');
      const created = await log.next('session.created');
      assert.deepEqual(created.session.output_modalities, ['text'], 'the session says from the start that it answers in text');
      say(rt, ASK);
      rt.send({ type: 'response.create' });
      const done = await log.next('response.done');
      const heard = textOf(log.events, 0);
      // The same question asked directly in the upstream's own protocol gets the same words and counts.
      const direct =
        wire === 'anthropic'
          ? await rig.anthropic.messages.create({ model: 'tr-chat', max_tokens: 4096, messages: [{ role: 'user', content: ASK }] })
          : await rig.gemini.models.generateContent({ model: 'tr-chat', contents: ASK });
      const directText =
        'content' in direct ? direct.content.map((block) => (block.type === 'text' ? block.text : '')).join('') : (direct.text ?? '');
      assert.equal(heard, directText);
      assert.equal(done.response.status, 'completed');
      assert.equal(done.response.output[0].content[0].text, heard);
      const { usage } = done.response;
      assert.ok(usage.input_tokens > 0 && usage.output_tokens > 0);
      const upstreamCounts =
        'content' in direct
          ? [direct.usage.input_tokens, direct.usage.output_tokens]
          : [direct.usageMetadata?.promptTokenCount, direct.usageMetadata?.candidatesTokenCount];
      assert.deepEqual([usage.input_tokens, usage.output_tokens], upstreamCounts, 'the upstream’s own counts');
      await settle();
      assert.deepEqual(usageRows(rig.front).slice(rowsBefore)[0], {
        model: 'tr-chat',
        endpoint: '/v1/realtime',
        input_tokens: usage.input_tokens,
        output_tokens: usage.output_tokens,
      });
      // The second turn carries the first: the upstream is asked the whole conversation.
      const mark = log.events.length;
      say(rt, 'And what about their keepers?');
      rt.send({ type: 'response.create' });
      await log.next('response.done', mark);
      rt.socket.close();
      assert.ok(textOf(log.events, mark).length > 0);
      await settle();
      const upstreamPath = wire === 'anthropic' ? { path: '/v1/messages' } : { prefix: '/v1beta/models/sim-chat' };
      const asked = (await journalEntries(rig.up, upstreamPath)).map((entry) => JSON.parse(entry.request.text));
      const last = JSON.stringify(asked.find((body) => JSON.stringify(body).includes('keepers')));
      assert.ok(last.includes('lighthouses on rocky coasts') && last.includes(heard.slice(0, 20)), last);
      assert.ok(!log.types().includes('error'), log.types().join());
    });

    test('a tool declared in the session is called through the translated chat, and its output answered', async () => {
      const { rt, log } = await connect('tr-chat');
      await log.next('session.created');
      rt.send({
        type: 'session.update',
        session: {
          type: 'realtime',
          output_modalities: ['text'],
          tools: [{ type: 'function', name: 'get_weather', description: 'Weather of a city', parameters: WEATHER }],
          tool_choice: 'required',
        },
      });
      await log.next('session.updated');
      say(rt, 'What is the weather in Lisbon?');
      rt.send({ type: 'response.create' });
      const done = await log.next('response.done');
      const [call] = done.response.output;
      assert.equal(call.type, 'function_call', JSON.stringify(done.response.output));
      assert.equal(call.name, 'get_weather');
      rt.send({
        type: 'conversation.item.create',
        item: { type: 'function_call_output', call_id: call.call_id, output: '{"sky":"clear"}' },
      });
      rt.send({ type: 'session.update', session: { type: 'realtime', tool_choice: 'none' } });
      await log.next('session.updated');
      const mark = log.events.length;
      rt.send({ type: 'response.create' });
      const answered = await log.next('response.done', mark);
      rt.socket.close();
      assert.equal(answered.response.output[0].type, 'message');
      assert.ok(textOf(log.events, mark).length > 0);
    });

    test('audio is refused with the reason, and the session goes on in text', async () => {
      const { rt, log } = await connect('tr-chat');
      await log.next('session.created');
      rt.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['audio'] } });
      const spoken = await log.next('error');
      assert.equal(spoken.error.param, 'session.output_modalities');
      assert.match(spoken.error.message, new RegExp(`served only by ${wire} channels.*no audio in or out`));
      rt.send({ type: 'input_audio_buffer.append', audio: Buffer.alloc(4800).toString('base64') });
      const heard = await log.next('error');
      assert.equal(heard.error.param, 'audio');
      rt.send({ type: 'response.create', response: { output_modalities: ['audio'] } });
      const asked = await log.next('error');
      assert.equal(asked.error.param, 'response.output_modalities');
      say(rt, ASK);
      rt.send({ type: 'response.create' });
      const done = await log.next('response.done');
      rt.socket.close();
      assert.equal(done.response.status, 'completed');
      assert.ok(!log.types().includes('response.output_audio.delta'));
    });
  });
}

describe('a translated realtime response', { timeout: 60_000 }, () => {
  test('is billed and reported by the counts the upstream sent, not by the gateway’s own estimate', async () => {
    // A stand-in Anthropic upstream whose usage differs from any local estimate of its short answer.
    const upstream = await hostileUpstream((_, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: 'claude-stand-in',
          content: [{ type: 'text', text: 'Harbour lights.' }],
          stop_reason: 'end_turn',
          usage: { input_tokens: 41, output_tokens: 13 },
        }),
      );
    });
    const front = await gatewayBefore(upstream, 'anthropic');
    try {
      const rt = await openRaw(`${front.url.replace('http', 'ws')}/v1/realtime?model=claude-stand-in`, {
        headers: { authorization: `Bearer ${front.token}` },
      });
      await rt.next('session.created');
      rt.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: ASK }] } });
      rt.send({ type: 'response.create' });
      const done = await rt.next('response.done');
      rt.socket.close();
      assert.equal(done.response.output[0].content[0].text, 'Harbour lights.');
      assert.equal(done.response.usage.input_tokens, 41);
      assert.equal(done.response.usage.output_tokens, 13);
      await settle();
      assert.deepEqual(usageRows(front).at(-1), {
        model: 'claude-stand-in',
        endpoint: '/v1/realtime',
        input_tokens: 41,
        output_tokens: 13,
      });
      assert.equal(JSON.parse(upstream.requests[0]!.body.toString('utf8')).messages[0].content[0].text, ASK);
    } finally {
      await front.stop();
      await upstream.close();
    }
  });
});
