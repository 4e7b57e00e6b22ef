// Test helper: the journal entry of an account's one call, read through the admin API once it is recorded with its usage.
import assert from 'node:assert/strict';
import { request, type TestGateway } from './gateway.ts';

/** The journal entry (with its details) of `account`'s latest call on `gw`, once recorded with its usage; fails after 60 s. */
export async function accountEntry(gw: TestGateway, account: string) {
  const admin = (path: string) => request(`${gw.url}/admin/api${path}`, 'GET', { token: gw.gateway.adminToken });
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { items } = (await admin(`/journal?account=${account}`)).body as { items: { id: number; usage: unknown }[] };
    if (items[0]?.usage) return (await admin(`/journal/${items[0].id}`)).body;
    if (Date.now() > deadline) assert.fail(`no journal entry for ${account}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
