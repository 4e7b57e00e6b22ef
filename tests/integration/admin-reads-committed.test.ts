// Integration test: the admin API reads what every call answered before it left behind, although bookkeeping no call waits for (a relayed charge, a call's count) is committed up to 2 ms later.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { request, startGateway, type TestGateway } from '../helpers/gateway.ts';

let gw: TestGateway;
before(async () => {
  gw = await startGateway();
});
after(async () => {
  await gw.stop();
});

test('an admin request commits the queued bookkeeping before it reads: a token spent a moment ago shows it', async () => {
  const { writes, tokens, db } = gw.gateway.context;
  const { token } = tokens.create({ account: 'local', name: 'spender' });
  // Who committed the queue: the admin route (its handler's flush), or the 2 ms timer that got there first.
  const flushedBy: string[] = [];
  const flush = writes.flush.bind(writes);
  writes.flush = () => {
    if (writes.pending > 0) flushedBy.push(new Error().stack!.includes('routes/admin.ts') ? 'admin' : 'timer');
    flush();
  };
  try {
    for (let round = 0; round < 20; round++) {
      // A charge of 7 micro-units no one waits for, queued as a relayed answer's is; then the console lists the tokens.
      writes.defer(() => void db.prepare('UPDATE tokens SET used_micros = used_micros + 7 WHERE token_id = ?').run(token.token_id));
      const listed = await request(`${gw.url}/admin/api/tokens`, 'GET', { token: gw.gateway.adminToken });
      assert.equal(listed.status, 200);
      const used = (listed.body as { token_id: string; used: number }[]).find((item) => item.token_id === token.token_id)!.used;
      assert.equal(Math.round(used * 1_000_000), 7 * (round + 1), `round ${round}: the list shows every charge queued before it`);
    }
  } finally {
    writes.flush = flush;
  }
  // The timer may win a round on a slow machine; the list is right either way, and the admin route committed the rest.
  assert.ok(flushedBy.includes('admin'), `the admin route committed the queue itself (${flushedBy.join(', ')})`);
});
