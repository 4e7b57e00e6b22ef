// Test helper: checks that an answer is an error in the caller's protocol (the gateway's four error envelopes).
import assert from 'node:assert/strict';
import type { Protocol } from '../../electron/gateway/server/protocol.ts';

/** True when the answer is a refusal: HTTP 400 and above, or the portrait envelope's `success: false`. */
export function isRefusal(protocol: Protocol, status: number, body: unknown): boolean {
  if (status >= 400) return true;
  return protocol === 'portrait' && (body as { success?: unknown } | null)?.success === false;
}

/**
 * Asserts a refusal has its protocol's shape: `{success:false,message}` (HTTP 200, or 401/403 from the auth
 * layer) for the portrait API, `{type:"error",error:{type,message}}` for Anthropic, `{error:{code,message,status}}`
 * for Gemini, `{error:{message,type,param,code}}` for the OpenAI family (3D and admin API included).
 */
export function assertErrorEnvelope(protocol: Protocol, status: number, body: any, label: string): void {
  const shown = `${label}: ${status} ${JSON.stringify(body)?.slice(0, 500)}`;
  assert.ok(body !== null && typeof body === 'object', shown);
  switch (protocol) {
    case 'portrait':
      assert.ok(status === 200 || status === 401 || status === 403 || status === 413, shown);
      assert.equal(body.success, false, shown);
      assert.equal(typeof body.message, 'string', shown);
      return;
    case 'anthropic':
      assert.ok(status >= 400, shown);
      assert.equal(body.type, 'error', shown);
      assert.equal(typeof body.error?.type, 'string', shown);
      assert.equal(typeof body.error?.message, 'string', shown);
      return;
    case 'gemini':
      assert.ok(status >= 400, shown);
      assert.equal(body.error?.code, status, shown);
      assert.equal(typeof body.error?.message, 'string', shown);
      assert.equal(typeof body.error?.status, 'string', shown);
      return;
    case 'openai':
      assert.ok(status >= 400, shown);
      assert.equal(typeof body.error?.message, 'string', shown);
      assert.equal(typeof body.error?.type, 'string', shown);
      assert.ok('param' in body.error && 'code' in body.error, shown);
  }
}
