// Integration tests of what `gatehouse serve` costs the machine: the packages its first answer does not need stay unloaded, and the memory a burst of calls grew goes back once it ends.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { firstTokenOf, privateServeArgs, serveCli } from '../helpers/cli.ts';
import { eventually } from '../helpers/eventually.ts';
import { tempDataDir } from '../helpers/gateway.ts';

const MODULE_LOG_HOOK = fileURLToPath(new URL('../helpers/module-log.mjs', import.meta.url));

/** Resident memory of a process in MB, from /proc (Linux only). */
function rssMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
}

describe('gatehouse serve footprint', () => {
  const dataDir = tempDataDir();
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-footprint-'));
  after(() => {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  });

  test('the first answer loads neither the relay client, the certificate maker nor the schema compilers', async () => {
    const log = path.join(scratch, 'modules.txt');
    // The sources' own imports are what is checked (the CLI bundle keeps them: each module is evaluated when imported).
    const server = await serveCli(privateServeArgs(dataDir), {
      GATEHOUSE_CLI_BUNDLE: 'off',
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${MODULE_LOG_HOOK}`,
      GATEHOUSE_TEST_MODULE_LOG: log,
    });
    try {
      const models = await new OpenAI({ baseURL: `${server.url}/v1`, apiKey: firstTokenOf(server), maxRetries: 0 }).models.list();
      assert.ok(models.data.length > 0);
    } finally {
      assert.equal(await server.stop('SIGTERM'), 0, server.stderr());
    }
    const loaded = readFileSync(log, 'utf8').split('\n');
    assert.ok(
      loaded.some((url) => url.includes('/node_modules/fastify/')),
      'the log saw the packages the gateway does load',
    );
    for (const name of ['undici', 'node-forge', 'ajv', '@fastify/ajv-compiler', '@fastify/fast-json-stringify-compiler']) {
      const found = loaded.filter((url) => url.includes(`/node_modules/${name}/`));
      assert.deepEqual(found, [], `${name} is loaded only when a call or a listener needs it`);
    }
  });

  test('resident memory goes back near idle within 30 s of a burst of streamed calls', async (t) => {
    if (process.platform !== 'linux') return t.skip('resident memory is read from /proc (Linux only)');
    const server = await serveCli(privateServeArgs(tempDataDir()));
    try {
      const pid = server.child.pid!;
      const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: firstTokenOf(server), maxRetries: 0 });
      // A long prompt (about 24 KB, as a pasted file would be): each call in flight holds its body, its parse and its
      // journal record, so the burst grows the heap even now that a streamed answer's text is kept off it.
      const prompt = 'Tell me about the lighthouse keeper and the ships that passed his light. '.repeat(330);
      const stream = async () => {
        const events = await client.chat.completions.create({
          model: 'sim-chat',
          stream: true,
          messages: [{ role: 'user', content: prompt }],
        });
        for await (const event of events) void event;
      };
      await stream();
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const idle = rssMb(pid);
      // 32 callers at once until the burst has grown the process to 1.7× its idle size (bounded: a slow machine gets more time).
      let peak = idle;
      const until = Date.now() + 60_000;
      await Promise.all(
        Array.from({ length: 32 }, async () => {
          while (peak < 1.7 * idle && Date.now() < until) {
            await stream();
            peak = Math.max(peak, rssMb(pid));
          }
        }),
      );
      assert.ok(peak >= 1.7 * idle, `the burst grew resident memory (idle ${idle.toFixed(0)} MB, peak ${peak.toFixed(0)} MB)`);
      await eventually(() => rssMb(pid) <= 1.5 * idle, `resident memory back to 1.5× idle (${idle.toFixed(0)} MB)`, {
        withinMs: 30_000,
        everyMs: 500,
      });
    } finally {
      assert.equal(await server.stop('SIGTERM'), 0, server.stderr());
    }
  });
});
