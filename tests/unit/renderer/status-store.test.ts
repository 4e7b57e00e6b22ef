// Unit tests of the status store: the chosen account survives reloads when it exists, falls back when it does not, and errors say why.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ServerStatus } from '../../../shared/server-status.ts';
import { ApiError, UNREACHABLE } from '../../../renderer/src/api/http.ts';
import { createAdminClient } from '../../../renderer/src/api/admin-client.ts';
import { createStatusStore } from '../../../renderer/src/stores/status.ts';
import { fakeAdmin } from '../../helpers/fake-admin.ts';
import { heldAnswer, turnsUntil, type HeldAnswer } from '../../helpers/held-answer.ts';

const status = (accounts: string[]) => ({ accounts, nextScanAt: 5 }) as ServerStatus;

test('the chosen account is kept while it exists, else the first account is chosen', async () => {
  let accounts = ['ci-bot', 'local'];
  const store = createStatusStore(fakeAdmin({ getStatus: () => status(accounts) }).call);
  await store.getState().load();
  store.getState().setAccount('ci-bot');
  await store.getState().load();
  assert.equal(store.getState().account, 'ci-bot');
  accounts = ['other'];
  await store.getState().load();
  assert.equal(store.getState().account, 'other');
  store.getState().setNextScanAt(99);
  assert.equal(store.getState().status?.nextScanAt, 99);
});

test('a refused or unreachable gateway leaves a message that says what to do', async () => {
  const refused = createStatusStore(
    fakeAdmin({ getStatus: () => Promise.reject(new ApiError('Wrong admin token: its console secret was rotated', 401)) }).call,
  );
  await refused.getState().load();
  assert.match(refused.getState().error!, /console secret was rotated/);
  const offline = createStatusStore(
    createAdminClient({
      apiBase: 'http://127.0.0.1:9',
      adminToken: 't',
      fetch: (async () => Promise.reject(new TypeError('fetch failed'))) as typeof fetch,
    }),
  );
  await offline.getState().load();
  assert.equal(offline.getState().error, UNREACHABLE);
});

test('the admin client sends the token, fills the path and drops empty query values', async () => {
  const seen: Array<{ url: string; init: RequestInit }> = [];
  const call = createAdminClient({
    apiBase: 'http://gw',
    adminToken: 'adm',
    fetch: (async (url: string, init: RequestInit) => {
      seen.push({ url, init });
      return Response.json({ page: 1, page_size: 10, total: 0, items: [] });
    }) as unknown as typeof fetch,
  });
  await call('listAssets', { params: { account: 'a b' }, query: { p: 2, group_id: '', status: 'Active' } });
  assert.equal(seen[0]!.url, 'http://gw/admin/api/accounts/a%20b/assets?p=2&status=Active');
  assert.equal(new Headers(seen[0]!.init.headers).get('authorization'), 'Bearer adm');
  await call('createGroup', { params: { account: 'local' }, body: { name: 'g' } });
  assert.equal(seen[1]!.init.method, 'POST');
  assert.equal(seen[1]!.init.body, '{"name":"g"}');
});

test("a status read before a scan's event never puts the earlier next scan back: it is read again", async () => {
  const reads: HeldAnswer<ServerStatus>[] = [];
  const store = createStatusStore(
    fakeAdmin({
      getStatus: () => {
        const read = heldAnswer<ServerStatus>();
        reads.push(read);
        return read.promise;
      },
    }).call,
  );
  const first = store.getState().load();
  reads[0]!.resolve(status(['local']));
  await first;
  const again = store.getState().load();
  store.getState().setNextScanAt(99);
  reads[1]!.resolve(status(['local']));
  assert.ok(await turnsUntil(() => reads.length === 3), 'the status read before the event is read again');
  reads[2]!.resolve({ ...status(['local']), nextScanAt: 99 });
  await again;
  assert.equal(store.getState().status?.nextScanAt, 99);
  assert.equal(store.getState().loading, false);
});
