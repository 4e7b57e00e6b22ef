// Tests of a portrait or 3D service call's time limits against a hostile upstream: headers then silence ends by the idle timeout, a dripping answer by the lower of timeout_ms and the deadline; the connection is closed.
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { after, test } from 'node:test';
import { UpstreamError } from '../../../electron/gateway/errors.ts';
import { serviceFetch } from '../../../electron/gateway/providers/service-http.ts';
import { hostileUpstream, type HostileUpstream } from '../../helpers/hostile-upstream.ts';

/** Generous: the limits under test are a fraction of a second. */
const BOUND_MS = 15_000;
const upstreams: HostileUpstream[] = [];
after(async () => {
  for (const up of upstreams) await up.close();
});

/** The error of a call to an upstream answering with `handler`, and whether the upstream socket closed; fails when the call is held past BOUND_MS. */
async function failureOf(
  handler: (response: ServerResponse) => void,
  limits: { timeoutMs: number; idleTimeoutMs: number; deadlineMs: number },
) {
  const up = await hostileUpstream();
  upstreams.push(up);
  let socketClosed!: Promise<void>;
  up.handle((_, response) => {
    socketClosed = new Promise((resolve) => response.socket!.once('close', () => resolve()));
    handler(response);
  });
  let timer: NodeJS.Timeout | undefined;
  const held = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`held after ${BOUND_MS} ms`)), BOUND_MS)));
  try {
    const error = await Promise.race([
      serviceFetch({ url: `${up.url}/api`, method: 'GET', headers: {}, ...limits }).then(
        () => undefined,
        (e: unknown) => e,
      ),
      held,
    ]);
    await Promise.race([socketClosed, held]);
    return error;
  } finally {
    clearTimeout(timer);
  }
}

test('a service answer that stops after its headers fails by the idle timeout, long before timeout_ms', async () => {
  const error = await failureOf(
    (response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"data":');
    },
    { timeoutMs: 60_000, idleTimeoutMs: 300, deadlineMs: 1_800_000 },
  );
  assert.ok(error instanceof UpstreamError, String(error));
  assert.match(error.message, /sent nothing for 300 ms/);
});

test('a service answer that drips forever fails at the lower of timeout_ms and the deadline', async () => {
  const drips = new Set<NodeJS.Timeout>();
  try {
    const error = await failureOf(
      (response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        const drip = setInterval(() => response.write(' '), 100);
        drips.add(drip);
        response.socket!.once('close', () => clearInterval(drip));
      },
      { timeoutMs: 60_000, idleTimeoutMs: 300, deadlineMs: 1_000 },
    );
    assert.ok(error instanceof UpstreamError, String(error));
    assert.match(error.message, /deadline of 1000 ms/);
  } finally {
    for (const drip of drips) clearInterval(drip);
  }
});
