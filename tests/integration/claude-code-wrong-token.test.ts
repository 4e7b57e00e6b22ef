// Claude Code (the real CLI, `claude -p`) against the gateway with a wrong token: it stops after one refused call instead of retrying for minutes (x-should-retry: false).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { startGateway, tempDirs, type TestGateway } from '../helpers/gateway.ts';
import { claudeBinary, CLAUDE_MISSING } from '../helpers/real-clients.ts';

const binary = claudeBinary();
const skip = binary ? false : CLAUDE_MISSING;
if (skip) console.log(`# skipped: ${skip}`);

describe('Claude Code with a wrong token', { skip }, () => {
  const dirs = tempDirs();
  let gateway: TestGateway;
  let front: http.Server;
  let frontUrl: string;
  const calls: string[] = [];

  before(async () => {
    gateway = await startGateway();
    // A pass-through in front of the gateway that lists every call the CLI makes.
    const target = new URL(gateway.url);
    front = http.createServer((incoming, answer) => {
      calls.push(`${incoming.method} ${incoming.url}`);
      const forwarded = http.request(
        { host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: incoming.headers },
        (upstream) => {
          answer.writeHead(upstream.statusCode ?? 502, upstream.headers);
          upstream.pipe(answer);
        },
      );
      forwarded.on('error', () => answer.destroy());
      incoming.pipe(forwarded);
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    frontUrl = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
  });
  after(async () => {
    front?.close();
    await gateway?.stop();
    dirs.removeAll();
  });

  test('`claude -p` fails after one refused call, saying the authentication failed', async () => {
    const home = dirs.fresh();
    const child = spawn(binary!, ['-p', 'hi'], {
      env: {
        ...process.env,
        HOME: home,
        ANTHROPIC_BASE_URL: frontUrl,
        ANTHROPIC_API_KEY: 'gh-not-a-token-of-this-gateway',
        DISABLE_TELEMETRY: '1',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    // A generous bound only so a retrying CLI ends within the test (without the hint it retries for about three minutes).
    const killer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(killer);
    const messages = calls.filter((call) => call.startsWith('POST /v1/messages'));
    assert.equal(messages.length, 1, `one call, no retry: ${calls.join(', ')}`);
    assert.notEqual(code, 0, output);
    assert.match(output, /401|authenticat/i);
  });
});
