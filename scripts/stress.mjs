#!/usr/bin/env node
// Stress check of a real `gatehouse serve`: (a) SIGKILL durability loop (writes and journal entries a client was shown), (b) bounded mixed load; prints "N passed, N failed".
// Loopback traffic only. Usage: node scripts/stress.mjs [--rounds 5] [--load-seconds 40]
import { spawn } from 'node:child_process';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { JOURNAL_LIMIT } from '../shared/journal.ts';

const CLI = fileURLToPath(new URL('../bin/gatehouse.mjs', import.meta.url));
const { values: flags } = parseArgs({
  options: { rounds: { type: 'string', default: '5' }, 'load-seconds': { type: 'string', default: '40' } },
});
/** SIGKILL rounds of part (a). */
const ROUNDS = Number(flags.rounds);
/** Duration of part (b); the whole script stays near a minute and a half on a loaded 2-core machine. */
const LOAD_MS = Math.min(60, Number(flags['load-seconds'])) * 1000;
/** Concurrent workers of the mixed load and of the write loop. */
const LOAD_WORKERS = 8;
const WRITE_WORKERS = 4;
/** Loops of part (a) that make a call, then read its journal entry back through the admin API (the journal thread's file). */
const JOURNAL_WORKERS = 2;
/** How long a round waits for its first journal entry read back before the kill comes at a random moment (a generous bound: the journal thread starts with the first recorded call, slowly on a busy machine). */
const FIRST_ENTRY_WAIT_MS = 30_000;
/** The admin token of every `gatehouse serve` this script starts (GATEHOUSE_ADMIN_TOKEN), for the journal reads. */
const ADMIN_TOKEN = `stress-admin-${process.pid}-${Date.now()}`;
/** /healthz must answer within this while the load runs (generous: two cores shared with other work). */
const HEALTH_DEADLINE_MS = 2_000;
/** Allowed RSS growth from the first third of the load to its end. */
const RSS_GROWTH_FACTOR = 1.5;
const RSS_GROWTH_SLACK = 64 * 1024 * 1024;

const results = { passed: 0, failed: 0 };
function check(ok, what) {
  if (ok) results.passed++;
  else results.failed++;
  console.log(`${ok ? 'ok' : 'FAILED'} - ${what}`);
}

const configHome = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-stress-config-'));

/** Starts `gatehouse serve` on port 0 and resolves with its URL, first token (if printed) and process. */
function serve(dataDir) {
  const child = spawn(
    process.execPath,
    [CLI, 'serve', '--port', '0', '--tls-port', 'off', '--data-dir', dataDir, '--secrets', 'none', '--settings-file', 'off'],
    {
      env: { ...process.env, XDG_CONFIG_HOME: configHome, GATEHOUSE_ADMIN_TOKEN: ADMIN_TOKEN },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    let out = '';
    let token;
    child.stdout.on('data', (chunk) => {
      out += chunk;
      token ??= /sk-gh-[A-Za-z0-9]+/.exec(out)?.[0];
      const match = /^listening on (http:\/\/\S+)$/m.exec(out);
      if (match) resolve({ child, url: match[1], token, stderr: () => stderr });
    });
    child.once('exit', (code) => reject(new Error(`gatehouse serve exited ${code} before listening:\n${stderr}`)));
  });
}

async function killed(child, signal) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}

async function call(url, method, token, body, extra = {}) {
  const response = await fetch(url, {
    method,
    headers: {
      ...(token && { authorization: `Bearer ${token}` }),
      ...(body !== undefined && { 'content-type': 'application/json' }),
      ...extra.headers,
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
    signal: extra.signal ?? AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  let json;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: response.status, body: json };
}

/** Every id of a paged portrait list. */
async function allIds(url, token, kind, idKey) {
  const ids = new Set();
  for (let page = 1; ; page++) {
    const { body } = await call(`${url}/v1/portrait/${kind}?p=${page}&page_size=100`, 'GET', token);
    const items = body?.data?.items ?? [];
    for (const item of items) ids.add(item[idKey]);
    if (items.length < 100) return ids;
  }
}

/** The journal entries of one test id, read through the admin API (what a test suite or the console is shown). */
async function journalOf(url, testId) {
  const { body } = await call(`${url}/admin/api/journal?test_id=${encodeURIComponent(testId)}`, 'GET', ADMIN_TOKEN);
  return body?.items ?? [];
}

/**
 * (a) Writes as fast as acknowledged, and calls whose journal entry is then read back, kill -9 at a random moment,
 * restart, and find every acknowledged write and every journal entry a client was shown.
 */
async function durabilityLoop() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-stress-'));
  const groups = new Set();
  const assets = new Set();
  /** Test ids whose call's journal entry was read back before the kill. */
  /** Test id → the id of its entry as read back before the kill. */
  const shown = new Map();
  let token;
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      const server = await serve(dataDir);
      token ??= server.token;
      let running = true;
      /** Resolved once an entry of this round was read back, so every round kills with the journal under test. */
      let firstShown;
      const firstEntry = new Promise((resolve) => (firstShown = resolve));
      const worker = async (n) => {
        while (running) {
          try {
            const group = await call(`${server.url}/v1/portrait/groups`, 'POST', token, { name: `r${round}-w${n}` });
            if (group.body?.success) groups.add(group.body.data.group_id);
            else continue;
            const asset = await call(`${server.url}/v1/portrait/assets`, 'POST', token, {
              group_id: group.body.data.group_id,
              url: `https://cdn.example.com/${round}-${n}.png`,
              asset_type: 'Image',
              name: 'stress',
            });
            if (asset.body?.success) assets.add(asset.body.data.asset_id);
          } catch {
            // The kill cut this call: it was never acknowledged.
          }
        }
      };
      const journalWorker = async (n) => {
        for (let i = 0; running; i++) {
          const testId = `r${round}-j${n}-${i}`;
          try {
            await call(
              `${server.url}/v1/chat/completions`,
              'POST',
              token,
              {
                model: 'sim-chat',
                messages: [{ role: 'user', content: `stress ${testId}` }],
              },
              { headers: { 'x-gatehouse-test-id': testId } },
            );
            // A call is recorded as its response closes, a moment after the client has the answer: read until it is listed.
            for (let read = 0; read < 200 && running; read++) {
              const [entry] = await journalOf(server.url, testId);
              if (entry) {
                shown.set(testId, entry.id);
                firstShown();
                break;
              }
              await sleep(25);
            }
          } catch {
            // The kill cut this call or its read: nothing was shown.
          }
        }
      };
      const workers = [
        ...Array.from({ length: WRITE_WORKERS }, (_, n) => worker(n)),
        ...Array.from({ length: JOURNAL_WORKERS }, (_, n) => journalWorker(n)),
      ];
      await Promise.race([firstEntry, sleep(FIRST_ENTRY_WAIT_MS, undefined, { ref: false })]);
      await sleep(300 + Math.random() * 1_500);
      await killed(server.child, 'SIGKILL');
      running = false;
      await Promise.all(workers);

      const again = await serve(dataDir);
      try {
        const keptGroups = await allIds(again.url, token, 'groups', 'group_id');
        const keptAssets = await allIds(again.url, token, 'assets', 'asset_id');
        const lostGroups = [...groups].filter((id) => !keptGroups.has(id));
        const lostAssets = [...assets].filter((id) => !keptAssets.has(id));
        check(
          lostGroups.length === 0 && lostAssets.length === 0,
          `round ${round}: after SIGKILL, all ${groups.size} acknowledged groups and ${assets.size} assets are there (lost ${lostGroups.length} + ${lostAssets.length})`,
        );
        const lostEntries = [];
        // The journal keeps the newest JOURNAL_LIMIT entries (the portrait writes above are recorded too): an older one
        // pruned since it was read back is not lost.
        const { body: newest } = await call(`${again.url}/admin/api/journal?page_size=1`, 'GET', ADMIN_TOKEN);
        const kept = (newest?.items?.[0]?.id ?? 0) - JOURNAL_LIMIT;
        let checked = 0;
        for (const [testId, id] of shown) {
          if (id <= kept) continue;
          checked += 1;
          if ((await journalOf(again.url, testId)).length !== 1) lostEntries.push(testId);
        }
        check(
          lostEntries.length === 0,
          `round ${round}: after SIGKILL, all ${checked} journal entries read back before it and among the newest ${JOURNAL_LIMIT} are there (lost ${lostEntries.length}: ${lostEntries.slice(0, 3).join(', ')})`,
        );
      } finally {
        await killed(again.child, 'SIGTERM');
      }
    }
    check(shown.size > 0, `journal entries were read back before a kill (${shown.size}): the journal's durability was put to the test`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Resident memory of a process, in bytes (Linux /proc). */
function rssOf(pid) {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** A client with no token that sends headers and trickles its body until the server drops it (or 3 s pass). */
function slowBody(url) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port) });
    socket.on('error', () => {});
    socket.once('connect', () =>
      socket.write(
        `POST /v1/chat/completions HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`,
      ),
    );
    const timer = setInterval(() => socket.writable && socket.write(' '), 100);
    const done = () => {
      clearInterval(timer);
      socket.destroy();
      resolve();
    };
    socket.once('close', done);
    setTimeout(done, 3_000);
  });
}

/** (b) A bounded mixed load; no 5xx, /healthz always answered, memory not growing without bound. */
async function mixedLoad() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-stress-'));
  const server = await serve(dataDir);
  const { url, token } = server;
  const errors = [];
  const counts = {};
  const note = (name, status) => {
    counts[name] = (counts[name] ?? 0) + 1;
    if (status >= 500) errors.push(`${name}: HTTP ${status}`);
  };
  const chat = (stream) => ({
    model: 'sim-chat',
    stream,
    messages: [{ role: 'user', content: 'Write a few sentences about lighthouses.' }],
  });
  const operations = {
    chat: async () => note('chat', (await call(`${url}/v1/chat/completions`, 'POST', token, chat(false))).status),
    'chat stream': async () => note('chat stream', (await call(`${url}/v1/chat/completions`, 'POST', token, chat(true))).status),
    'aborted stream': async () => {
      const controller = new AbortController();
      const response = await fetch(`${url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(chat(true)),
        signal: controller.signal,
      });
      note('aborted stream', response.status);
      const reader = response.body.getReader();
      await reader.read();
      controller.abort();
      await reader.read().catch(() => {});
    },
    embeddings: async () =>
      note(
        'embeddings',
        (await call(`${url}/v1/embeddings`, 'POST', token, { model: 'sim-embed', input: ['one text', 'another text'] })).status,
      ),
    portrait: async () => {
      const group = await call(`${url}/v1/portrait/groups`, 'POST', token, { name: 'load' });
      note('portrait', group.status);
      note('portrait', (await call(`${url}/v1/portrait/groups?page_size=5`, 'GET', token)).status);
    },
    '3d': async () => {
      const task = await call(`${url}/v1/3d/generations`, 'POST', token, { prompt: 'a small ceramic teapot' });
      note('3d', task.status);
      if (task.body?.task_id) note('3d', (await call(`${url}/v1/3d/generations/${task.body.task_id}`, 'GET', token)).status);
    },
    'slow body': async () => {
      await slowBody(url);
      note('slow body', 0);
    },
  };
  const names = Object.keys(operations);
  const deadline = Date.now() + LOAD_MS;
  const rss = [];
  let healthMisses = 0;
  let healthChecks = 0;
  const health = (async () => {
    while (Date.now() < deadline) {
      healthChecks++;
      try {
        const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(HEALTH_DEADLINE_MS) });
        await response.arrayBuffer();
        if (response.status !== 200) healthMisses++;
      } catch {
        healthMisses++;
      }
      const bytes = rssOf(server.child.pid);
      if (bytes !== undefined) rss.push({ at: Date.now(), bytes });
      await sleep(250);
    }
  })();
  const worker = async () => {
    while (Date.now() < deadline) {
      const name = names[Math.floor(Math.random() * names.length)];
      try {
        await operations[name]();
      } catch (error) {
        if (name !== 'aborted stream') errors.push(`${name}: ${error.message}`);
      }
    }
  };
  const started = Date.now();
  await Promise.all([health, ...Array.from({ length: LOAD_WORKERS }, worker)]);
  const alive = server.child.exitCode === null && server.child.signalCode === null;
  await killed(server.child, 'SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });

  const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
  console.log(`# mixed load: ${total} calls in ${Math.round((Date.now() - started) / 1000)} s: ${JSON.stringify(counts)}`);
  check(alive, 'the server is still running after the mixed load');
  check(
    errors.length === 0,
    `no 5xx and no failed call in the mixed load${errors.length ? `: ${[...new Set(errors)].slice(0, 5).join('; ')}` : ''}`,
  );
  check(
    healthMisses === 0,
    `/healthz answered within ${HEALTH_DEADLINE_MS} ms every time (${healthChecks - healthMisses}/${healthChecks})`,
  );
  const third = rss.find((sample) => sample.at >= started + LOAD_MS / 3)?.bytes;
  const last = rss.at(-1)?.bytes;
  const mb = (bytes) => `${Math.round(bytes / 1024 / 1024)} MB`;
  check(
    third !== undefined && last !== undefined && last <= third * RSS_GROWTH_FACTOR + RSS_GROWTH_SLACK,
    `RSS bounded: ${third && mb(third)} after a third of the load, ${last && mb(last)} at its end`,
  );
}

try {
  await durabilityLoop();
  await mixedLoad();
} catch (error) {
  check(false, `stress run crashed: ${error.stack ?? error}`);
} finally {
  rmSync(configHome, { recursive: true, force: true });
}
console.log(`${results.passed} passed, ${results.failed} failed`);
process.exit(results.failed === 0 ? 0 : 1);
