// Unit tests of the tokens and API-key stores: secret shown once, reveal and hide, revoke, and how the console picks a usable token.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AdminToken } from '../../../shared/admin-tokens.ts';
import { ApiError } from '../../../renderer/src/api/http.ts';
import { createApiKeyStore } from '../../../renderer/src/stores/api-key.ts';
import { memoryStorage } from '../../../renderer/src/stores/storage.ts';
import { createTokensStore } from '../../../renderer/src/stores/tokens.ts';
import { fakeAdmin } from '../../helpers/fake-admin.ts';
import { heldAnswer } from '../../helpers/held-answer.ts';

const token = (id: string, extra: Partial<AdminToken> = {}): AdminToken => ({
  token_id: id,
  account: 'local',
  name: 'n',
  hint: 'sk-gh-ab…wxyz',
  created_at: 1,
  expires_at: null,
  revoked_at: null,
  quota: null,
  used: 0,
  models: null,
  last_used_at: null,
  revealable: true,
  ...extra,
});

describe('tokens store', () => {
  test('a created token joins the list and its secret waits until dismissed; a refusal names the field', async () => {
    const admin = fakeAdmin({
      listTokens: () => [token('tok_1')],
      createToken: (input) => {
        if (input.body.account === '') throw new ApiError('account must not be empty', 400, 'account');
        return { token: token('tok_2', { account: input.body.account }), secret: 'sk-gh-secret' };
      },
    });
    const store = createTokensStore(admin.call);
    await store.getState().load();
    const result = await store.getState().create({ account: 'ci', quota: 2 });
    assert.equal(result.ok, true);
    assert.deepEqual(
      store.getState().tokens?.map((item) => item.token_id),
      ['tok_1', 'tok_2'],
    );
    assert.equal(store.getState().created?.secret, 'sk-gh-secret');
    store.getState().dismissCreated();
    assert.equal(store.getState().created, null);
    assert.deepEqual(await store.getState().create({ account: '' }), { ok: false, message: 'account must not be empty', param: 'account' });
  });

  test('a list asked for before a token was created does not hide it when it lands after; it is asked again', async () => {
    // The server's list as each listTokens call found it: the first was read before the token was created.
    const answers = [heldAnswer<AdminToken[]>(), heldAnswer<AdminToken[]>()];
    let lists = 0;
    const admin = fakeAdmin({
      listTokens: () => answers[lists++]!.promise,
      createToken: () => ({ token: token('tok_2'), secret: 'sk-gh-secret' }),
    });
    const store = createTokensStore(admin.call);
    const opened = store.getState().load();
    await store.getState().create({ account: 'ci' });
    answers[0]!.resolve([token('tok_1')]);
    answers[1]!.resolve([token('tok_1'), token('tok_2')]);
    await opened;
    assert.deepEqual(
      store.getState().tokens?.map((item) => item.token_id),
      ['tok_1', 'tok_2'],
    );
    assert.equal(lists, 2, 'the outdated list was asked again, once');
    assert.equal(store.getState().loading, false);
  });

  test('of two loads, the later one answers even when the earlier lands last', async () => {
    const answers = [heldAnswer<AdminToken[]>(), heldAnswer<AdminToken[]>()];
    let lists = 0;
    const store = createTokensStore(fakeAdmin({ listTokens: () => answers[lists++]!.promise }).call);
    const first = store.getState().load();
    const second = store.getState().load();
    answers[1]!.resolve([token('tok_new')]);
    await second;
    answers[0]!.resolve([token('tok_old')]);
    await first;
    assert.deepEqual(
      store.getState().tokens?.map((item) => item.token_id),
      ['tok_new'],
    );
  });

  test('reveal shows a kept secret; revoke marks the token and forgets the shown secret', async () => {
    const admin = fakeAdmin({
      listTokens: () => [token('tok_1')],
      revealToken: () => ({ secret: 'sk-gh-kept' }),
      revokeToken: () => token('tok_1', { revoked_at: 5, revealable: false }),
    });
    const store = createTokensStore(admin.call);
    await store.getState().load();
    await store.getState().reveal('tok_1');
    assert.equal(store.getState().revealed['tok_1'], 'sk-gh-kept');
    await store.getState().revoke('tok_1');
    assert.equal(store.getState().tokens?.[0]?.revoked_at, 5);
    assert.equal(store.getState().revealed['tok_1'], undefined);
    assert.deepEqual(store.getState().busy, []);
  });

  test('a failed action says why and frees the row', async () => {
    const store = createTokensStore(
      fakeAdmin({ revealToken: () => Promise.reject(new ApiError('No copy of this secret was kept', 404)) }).call,
    );
    await store.getState().reveal('tok_1');
    assert.equal(store.getState().actionError, 'No copy of this secret was kept');
    assert.deepEqual(store.getState().busy, []);
  });
});

describe('API key store', () => {
  test("asks the gateway for the account's console key once and holds it for the tab", async () => {
    const admin = fakeAdmin({
      obtainConsoleKey: (input) => ({ token_id: 'tok_good', secret: `secret-for-${input.params.account}`, source: 'revealed' as const }),
    });
    const storage = memoryStorage();
    const store = createApiKeyStore(admin.call, storage);
    const key = await store.getState().obtain('local');
    assert.deepEqual(key, { tokenId: 'tok_good', secret: 'secret-for-local', source: 'revealed' });
    assert.equal((await store.getState().obtain('local'))?.secret, 'secret-for-local', 'held keys are reused');
    assert.equal(admin.calls.length, 1);
    assert.equal(createApiKeyStore(admin.call, storage).getState().keys['local']?.tokenId, 'tok_good', 'kept for the tab');
  });

  test('a refused key is forgotten, so the next use asks again', async () => {
    const admin = fakeAdmin({ obtainConsoleKey: () => ({ token_id: 'tok_new', secret: 'sk-gh-new', source: 'created' as const }) });
    const store = createApiKeyStore(admin.call, memoryStorage());
    assert.equal((await store.getState().obtain('local'))?.source, 'created');
    store.getState().forget('local');
    assert.equal(store.getState().keys['local'], undefined);
    await store.getState().obtain('local');
    assert.equal(admin.calls.length, 2);
  });
});
