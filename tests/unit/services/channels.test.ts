// Unit tests of ChannelsService: field checks, keys only in the secret store, routing order, cooldown numbers, model lists.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { secretHint } from '../../../shared/channels.ts';
import { GatewayError } from '../../../electron/gateway/errors.ts';
import { noSecretStore, type SecretStore } from '../../../electron/gateway/secrets/secret-store.ts';
import { ChannelsService, cooldownAfter, SUCCESS_NOTE_RESOLUTION_MS } from '../../../electron/gateway/services/channels.ts';
import { SERVING_MODELS_KEPT } from '../../../electron/gateway/services/serving-models.ts';
import { ChannelsRepo } from '../../../electron/gateway/storage/channels-repo.ts';
import { GroupCommit } from '../../../electron/gateway/storage/group-commit.ts';
import { manualClock } from '../../helpers/clock.ts';
import { tempDatabase } from '../../helpers/database.ts';

/** An in-memory secret store that counts reads. */
function memoryStore() {
  const map = new Map<string, string>();
  let reads = 0;
  const store: SecretStore & { map: Map<string, string>; reads(): number } = {
    kind: 'file',
    description: 'memory',
    map,
    reads: () => reads,
    get: async (key) => {
      reads += 1;
      return map.get(key) ?? null;
    },
    set: async (key, value) => void map.set(key, value),
    delete: async (key) => map.delete(key),
  };
  return store;
}

function setup(options: { secrets?: SecretStore; random?: () => number } = {}) {
  const db = tempDatabase();
  const clock = manualClock();
  const secrets = options.secrets ?? memoryStore();
  const service = new ChannelsService({ repo: new ChannelsRepo(db), secrets, clock, ...(options.random && { random: options.random }) });
  return { db, clock, secrets, service };
}

async function rejection(promise: Promise<unknown>): Promise<GatewayError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof GatewayError, String(error));
    return error;
  }
  assert.fail('expected a rejection');
}

const base = { kind: 'openai', base_url: 'https://api.example.com/v1' } as const;

describe('ChannelsService: adding and checking', () => {
  test('a channel is stored with its defaults and only a hint of its key; the key sits in the secret store', async () => {
    const { db, secrets, service } = setup();
    const key = 'sk-abcdefghijklmnopwxyz';
    const channel = await service.add({ ...base, name: 'main', key });
    assert.match(channel.id, /^ch_/);
    assert.equal(channel.models, '*');
    assert.equal(channel.priority, 0);
    assert.equal(channel.weight, 1);
    assert.equal(channel.timeout_ms, 60_000);
    assert.equal(channel.idle_timeout_ms, 300_000, 'five minutes of silence: a reasoning model may think long before its first token');
    assert.equal(channel.deadline_ms, 1_800_000, 'thirty minutes for a whole call');
    assert.equal(channel.enabled, true);
    assert.equal(channel.key_hint, 'sk-…wxyz');
    assert.equal((secrets as ReturnType<typeof memoryStore>).map.get(`channel:${channel.id}`), key);
    const dump = JSON.stringify(db.prepare('SELECT * FROM channels').all());
    assert.ok(!dump.includes(key), 'the key is not in SQLite');
  });

  test('each bad field is refused with a message naming it', async () => {
    const { service } = setup();
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ kind: 'mistral' }, 'kind', /kind must be one of openai, anthropic, gemini/],
      [{ base_url: 'http://api.example.com/v1' }, 'base_url', /https/],
      [{ base_url: 'ftp://x' }, 'base_url', /https/],
      [{ base_url: 'https://user:pw@x.example/v1' }, 'base_url', /user name or password/],
      [{ base_url: 'not a url' }, 'base_url', /absolute URL/],
      [{ models: 'a=b=c' }, 'models', /more than one "="/],
      [{ models: 'gpt 4' }, 'models', /space/],
      [{ models: 'a, a' }, 'models', /twice/],
      [{ models: '*=x' }, 'models', /renames "\*"/],
      [{ priority: 1.5 }, 'priority', /whole number/],
      [{ weight: 0 }, 'weight', /weight must be a whole number from 1/],
      [{ timeout_ms: 10 }, 'timeout_ms', /timeout_ms/],
      [{ idle_timeout_ms: 10 }, 'idle_timeout_ms', /idle_timeout_ms must be a whole number from 100/],
      [{ deadline_ms: 86_400_001 }, 'deadline_ms', /deadline_ms must be a whole number from 100 to 86400000/],
      [{ headers: { 'bad name': 'x' } }, 'headers', /not a valid header name/],
      [{ headers: { Authorization: 'Bearer x' } }, 'headers', /secret store/],
      [{ headers: { 'X-Tenant': 'a\r\nb' } }, 'headers', /one line/],
      [{ name: 'has space' }, 'name', /name must be/],
    ];
    for (const [fields, param, message] of cases) {
      const error = await rejection(service.add({ ...base, name: 'ok', ...fields } as never));
      assert.equal(error.param, param, JSON.stringify(fields));
      assert.match(error.message, message);
    }
    for (const missing of ['name', 'kind', 'base_url'] as const) {
      const input: Record<string, string> = { ...base, name: 'x' };
      delete input[missing];
      assert.equal((await rejection(service.add(input as never))).param, missing);
    }
  });

  test('names are unique regardless of case; http is allowed to this machine only', async () => {
    const { service } = setup();
    await service.add({ ...base, name: 'Ollama', base_url: 'http://127.0.0.1:11434/v1/' });
    assert.equal(service.find('ollama')?.base_url, 'http://127.0.0.1:11434/v1');
    const error = await rejection(service.add({ ...base, name: 'ollama' }));
    assert.match(error.message, /already exists/);
    await service.add({ ...base, name: 'local2', base_url: 'http://localhost:8080/v1' });
    await service.add({ ...base, name: 'local6', base_url: 'http://[::1]:8080/v1' });
  });

  test('--secrets none refuses a keyed channel with the --secrets to use, and allows a keyless one', async () => {
    const { service } = setup({ secrets: noSecretStore });
    const error = await rejection(service.add({ ...base, name: 'keyed', key: 'sk-secret-value-1234' }));
    assert.equal(error.param, 'key');
    assert.match(error.message, /--secrets keychain/);
    assert.ok(!error.message.includes('sk-secret-value-1234'));
    assert.equal(service.list().length, 0);
    await service.add({ ...base, name: 'ollama', base_url: 'http://127.0.0.1:11434/v1' });
    assert.equal(service.list().length, 1);
  });

  test('update changes given fields, replaces or removes the key; remove deletes the key too', async () => {
    const { secrets, service } = setup();
    const store = secrets as ReturnType<typeof memoryStore>;
    const channel = await service.add({ ...base, name: 'a', key: 'first-key-123456' });
    const updated = await service.update('a', { name: 'b', priority: 5, enabled: false, key: 'second-key-654321' });
    assert.equal(updated.name, 'b');
    assert.equal(updated.priority, 5);
    assert.equal(updated.enabled, false);
    assert.equal(updated.base_url, base.base_url);
    assert.equal(updated.key_hint, secretHint('second-key-654321'));
    assert.equal(store.map.get(`channel:${channel.id}`), 'second-key-654321');
    assert.equal((await service.update(channel.id, { key: null })).key_hint, null);
    assert.equal(store.map.size, 0);
    await service.update('b', { key: 'third-key-000000' });
    await service.remove('b');
    assert.equal(store.map.size, 0);
    assert.equal(service.list().length, 0);
    assert.equal((await rejection(service.remove('b'))).kind, 'not_found');
  });

  test('the key hint shows at most 3 + 4 characters and never more than a third of a short key', () => {
    assert.equal(secretHint('sk-proj-0123456789abcdefwxyz'), 'sk-…wxyz');
    assert.equal(secretHint('abcdefghijkl'), 'ab…kl');
    assert.equal(secretHint('abc'), '…c');
    assert.equal(secretHint('ab'), '…');
  });
});

describe('ChannelsService as the ChannelDirectory', () => {
  test('candidates: enabled, serving the model (exact, renamed or *), priority first, weighted within one', async () => {
    const draws = [0.9, 0.0];
    const { service } = setup({ random: () => draws.shift() ?? 0 });
    await service.add({ ...base, name: 'low', priority: 0, models: '*' });
    await service.add({ ...base, name: 'heavy', priority: 10, weight: 3, models: 'gpt-x' });
    await service.add({ ...base, name: 'light', priority: 10, weight: 1, models: 'gpt-x=gpt-x-2025', key: 'sk-light-key-9999' });
    await service.add({ ...base, name: 'off', priority: 20, models: 'gpt-x', enabled: false });
    await service.add({ ...base, kind: 'anthropic', name: 'claude', base_url: 'https://api.anthropic.com', models: 'gpt-x' });
    // 0.9 × total weight 4 = 3.6 falls past heavy's 3: light first.
    const first = await service.candidates('gpt-x', 'openai');
    assert.deepEqual(
      first.map((item) => [item.name, item.upstreamModel]),
      [
        ['light', 'gpt-x-2025'],
        ['heavy', 'gpt-x'],
        ['low', 'gpt-x'],
      ],
    );
    assert.equal(first[0]!.key, 'sk-light-key-9999');
    assert.equal(first[1]!.key, null);
    const second = await service.candidates('gpt-x', 'openai');
    assert.deepEqual(
      second.map((item) => item.name),
      ['heavy', 'light', 'low'],
    );
    assert.deepEqual(
      (await service.candidates('other', 'openai')).map((item) => item.name),
      ['low'],
    );
    assert.deepEqual(service.kindsServing('gpt-x'), ['openai', 'anthropic']);
    assert.deepEqual(service.kindsServing('other'), ['openai']);
    assert.deepEqual(
      service.listedModels().map((item) => `${item.model}@${item.channel}`),
      ['gpt-x@heavy', 'gpt-x@light', 'gpt-x@claude'],
    );
  });

  test('api: openai channels speak chat completions unless set to responses; the wires serving a model follow, best channel first', async () => {
    const { service } = setup();
    const chat = await service.add({ ...base, name: 'compat', models: 'm' });
    assert.equal(chat.api, 'chat', 'the default');
    await service.add({ ...base, name: 'resp', api: 'responses', models: 'm, r', priority: 5 });
    await service.add({ kind: 'gemini', name: 'g', base_url: 'https://generativelanguage.googleapis.com', models: 'm' });
    assert.deepEqual(service.wiresServing('m'), ['openai-responses', 'openai-chat', 'gemini']);
    assert.deepEqual(service.wiresServing('r'), ['openai-responses']);
    assert.equal((await service.candidates('r', 'openai'))[0]!.api, 'responses');
    const refused = await rejection(service.add({ kind: 'anthropic', name: 'a', base_url: 'https://api.anthropic.com', api: 'chat' }));
    assert.equal(refused.param, 'api');
    assert.equal((await rejection(service.update('compat', { api: 'both' as never }))).param, 'api');
    assert.equal((await service.update('compat', { api: 'responses' })).api, 'responses');
    assert.equal((await service.update('compat', { kind: 'gemini' })).api, null, 'other kinds have no api');
  });

  test('the kinds and wires serving a model are worked out once while the channels stay the same, and again after any change', async () => {
    const { service } = setup();
    const chat = await service.add({ ...base, name: 'compat', models: 'm' });
    const kinds = service.kindsServing('m');
    const wires = service.wiresServing('m');
    assert.deepEqual([kinds, wires], [['openai'], ['openai-chat']]);
    assert.equal(service.kindsServing('m'), kinds, 'the next call gets the same list, not one made again');
    assert.equal(service.wiresServing('m'), wires);
    await service.add({ kind: 'anthropic', name: 'a', base_url: 'https://api.anthropic.com', models: 'm', priority: 5 });
    assert.deepEqual(
      [service.kindsServing('m'), service.wiresServing('m')],
      [
        ['anthropic', 'openai'],
        ['anthropic', 'openai-chat'],
      ],
    );
    await service.update(chat.id, { enabled: false });
    assert.deepEqual([service.kindsServing('m'), service.wiresServing('m')], [['anthropic'], ['anthropic']]);
    // Past SERVING_MODELS_KEPT models the kept answers start over, and every one is still right.
    for (let index = 0; index <= SERVING_MODELS_KEPT; index++) assert.deepEqual(service.kindsServing(`other-${index}`), []);
    assert.deepEqual(service.kindsServing('m'), ['anthropic']);
    assert.throws(() => (service.kindsServing('m') as string[]).push('gemini'), TypeError, 'a kept list cannot be changed by a caller');
  });

  test('cooldown: 3 failures in a row → 30 s, doubling per further failure up to 5 min; a success ends it', async () => {
    assert.deepEqual([1, 2, 3, 4, 5, 6, 7, 8].map(cooldownAfter), [0, 0, 30_000, 60_000, 120_000, 240_000, 300_000, 300_000]);
    const { clock, service } = setup();
    const channel = await service.add({ ...base, name: 'flaky', priority: 5 });
    const names = async () => (await service.candidates('m', 'openai')).map((candidate) => candidate.name);
    const fail = () => service.record(channel.id, { ok: false, latencyMs: 12, error: 'HTTP 500: boom' });
    fail();
    fail();
    assert.deepEqual(await names(), ['flaky'], 'two failures: still a candidate');
    fail();
    assert.deepEqual(await names(), ['flaky'], 'three: cooling down, but a lone channel is tried anyway');
    const steady = await service.add({ ...base, name: 'steady', priority: 1 });
    assert.deepEqual(await names(), ['steady'], 'with another candidate, the cooling channel is skipped');
    const health = service.find('flaky')!.health;
    assert.equal(health.consecutive_failures, 3);
    assert.equal(health.cooldown_until, clock.now() + 30_000);
    assert.equal(health.last_error, 'HTTP 500: boom');
    assert.deepEqual(service.kindsServing('m'), ['openai'], 'a cooling channel still claims its models');
    clock.advance(30_000);
    assert.deepEqual(await names(), ['flaky', 'steady'], 'tried again once the cooldown is over');
    fail();
    assert.equal(service.find('flaky')!.health.cooldown_until, clock.now() + 60_000);
    service.record(channel.id, { ok: true, latencyMs: 40 });
    const healed = service.find('flaky')!.health;
    assert.equal(healed.consecutive_failures, 0);
    assert.equal(healed.cooldown_until, null);
    assert.equal(healed.last_latency_ms, 40);
    assert.deepEqual(await names(), ['flaky', 'steady']);
    await service.remove(steady.id);
    service.record('ch_gone', { ok: false, latencyMs: 1, error: 'x' });
  });

  test('a model the upstream refused rests on that channel for its Retry-After; the channel and its other models do not', async () => {
    const { clock, service } = setup();
    const first = await service.add({ ...base, name: 'first', priority: 5 });
    await service.add({ ...base, name: 'second', priority: 1 });
    const names = async (model: string) => (await service.candidates(model, 'openai')).map((candidate) => candidate.name);
    for (let i = 0; i < 5; i += 1)
      service.record(first.id, {
        ok: false,
        latencyMs: 3,
        error: 'HTTP 429',
        model: 'busy',
        modelFailure: { missing: false, retryAfterMs: 2_000 },
      });
    assert.deepEqual(await names('busy'), ['second'], 'the rate-limited model rests on the first channel');
    assert.deepEqual(await names('other'), ['first', 'second'], 'its other models do not');
    assert.equal(service.find('first')!.health.cooldown_until, null, 'the channel is not cooled');
    assert.equal(service.find('first')!.health.consecutive_failures, 0);
    clock.advance(2_000);
    assert.deepEqual(await names('busy'), ['first', 'second'], 'back after the Retry-After');
    service.record(first.id, {
      ok: false,
      latencyMs: 3,
      error: 'HTTP 404: model not found',
      model: 'typo',
      modelFailure: { missing: true },
    });
    assert.deepEqual(await names('typo'), ['second']);
    await service.remove('second');
    assert.deepEqual(await names('typo'), ['first'], 'a lone channel is tried anyway');
    service.record(first.id, { ok: true, latencyMs: 3, model: 'typo' });
    clock.advance(1);
    assert.deepEqual(await names('typo'), ['first']);
  });

  test('a busy healthy channel notes its last success at most once a second; a success after failures is noted at once', async () => {
    const { clock, service } = setup();
    const channel = await service.add({ ...base, name: 'busy' });
    const health = () => service.find('busy')!.health;
    service.record(channel.id, { ok: true, latencyMs: 10 });
    assert.equal(health().last_latency_ms, 10, 'the first success is noted');
    const firstAt = health().last_ok_at;
    clock.advance(SUCCESS_NOTE_RESOLUTION_MS - 1);
    service.record(channel.id, { ok: true, latencyMs: 20 });
    assert.equal(health().last_latency_ms, 10, 'within the resolution: not written again');
    assert.equal(health().last_ok_at, firstAt);
    clock.advance(1);
    service.record(channel.id, { ok: true, latencyMs: 30 });
    assert.equal(health().last_latency_ms, 30, 'a second later: noted');
    assert.equal(health().last_ok_at, clock.now());
    service.record(channel.id, { ok: false, latencyMs: 5, error: 'HTTP 502: bad gateway' });
    assert.equal(health().consecutive_failures, 1);
    service.record(channel.id, { ok: true, latencyMs: 40 });
    assert.equal(health().consecutive_failures, 0, 'the streak ends with the next success, however soon');
    assert.equal(health().last_latency_ms, 40);
  });

  test('successes waiting for one group commit note the channel once: the first, decided when it is written', async () => {
    const db = tempDatabase();
    const clock = manualClock();
    const commits = new GroupCommit(db, (error) => assert.fail(String(error)));
    const service = new ChannelsService({ repo: new ChannelsRepo(db), secrets: memoryStore(), clock, writes: commits });
    const channel = await service.add({ ...base, name: 'busy' });
    const health = () => service.find('busy')!.health;
    service.record(channel.id, { ok: true, latencyMs: 10 });
    service.record(channel.id, { ok: true, latencyMs: 20 });
    assert.equal(health().last_ok_at, null, 'nothing is written before the commit');
    commits.flush();
    assert.equal(health().last_latency_ms, 10, 'the second success found the first one noted, within the resolution');
    assert.equal(health().last_ok_at, clock.now());
    service.record(channel.id, { ok: false, latencyMs: 5, error: 'HTTP 502: bad gateway' });
    service.record(channel.id, { ok: true, latencyMs: 30 });
    commits.flush();
    assert.equal(health().consecutive_failures, 0, 'a success after a failure is still noted at once');
    assert.equal(health().last_latency_ms, 30);
  });

  test('a channel whose key is missing from the store is skipped with the reason; a changed key is read again at once', async () => {
    const { secrets, service } = setup();
    const store = secrets as ReturnType<typeof memoryStore>;
    const channel = await service.add({ ...base, name: 'k', key: 'key-one-123456' });
    assert.equal((await service.candidates('m', 'openai'))[0]!.key, 'key-one-123456');
    await service.update('k', { key: 'key-two-654321' });
    assert.equal((await service.candidates('m', 'openai'))[0]!.key, 'key-two-654321');
    store.map.delete(`channel:${channel.id}`);
    await service.update('k', { priority: 1 });
    assert.deepEqual(await service.candidates('m', 'openai'), []);
    assert.match(service.find('k')!.health.last_error!, /not in the secret store/);
  });

  test('a channel whose secret store fails is skipped, and its last error says the store failed (not that the key is missing)', async () => {
    const { secrets, service } = setup();
    const store = secrets as ReturnType<typeof memoryStore>;
    await service.add({ ...base, name: 'locked', key: 'key-locked-123456' });
    store.get = async () => {
      throw new Error('the keychain is locked');
    };
    assert.deepEqual(await service.candidates('m', 'openai'), []);
    assert.equal(service.find('locked')!.health.last_error, 'the secret store failed: the keychain is locked');
  });

  test('an error recorded with the key in it keeps only the hint', async () => {
    const { service } = setup();
    const channel = await service.add({ ...base, name: 'echo', key: 'sk-echo-secret-7777' });
    await service.candidates('m', 'openai');
    service.record(channel.id, { ok: false, latencyMs: 5, error: 'Incorrect API key provided: sk-echo-secret-7777' });
    const error = service.find('echo')!.health.last_error!;
    assert.ok(!error.includes('sk-echo-secret-7777'));
    assert.ok(error.endsWith(secretHint('sk-echo-secret-7777')), error);
  });
});
