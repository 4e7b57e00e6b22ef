// Test helper: a token with a quota, made as a user would through the admin API, and what it has spent as the admin API shows it.
import assert from 'node:assert/strict';
import { request, type TestGateway } from './gateway.ts';

/** A token of a new account with `quota` USD, made through the admin API. */
export async function quotaToken(gw: TestGateway, account: string, quota: number): Promise<{ secret: string; tokenId: string }> {
  const created = await request(`${gw.url}/admin/api/tokens`, 'POST', { token: gw.gateway.adminToken, body: { account, quota } });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  return { secret: created.body.secret as string, tokenId: created.body.token.token_id as string };
}

/** The token's spent amount in USD, as the admin API lists it. */
export async function spentUsd(gw: TestGateway, tokenId: string): Promise<number> {
  const listed = await request(`${gw.url}/admin/api/tokens`, 'GET', { token: gw.gateway.adminToken });
  return (listed.body as { token_id: string; used: number }[]).find((token) => token.token_id === tokenId)!.used;
}

/** The token's spent amount in micro-units (millionths of a USD), as the admin API shows it. */
export async function spentMicros(gw: TestGateway, tokenId: string): Promise<number> {
  return Math.round((await spentUsd(gw, tokenId)) * 1e6);
}
