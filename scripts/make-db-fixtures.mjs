#!/usr/bin/env node
// Writes real database files of older commits into tests/fixtures/databases/<commit>/: each commit's own `gatehouse serve` in a temp worktree, written to through its HTTP API and CLI.
// Usage: node scripts/make-db-fixtures.mjs [commit ...] (default: the commits of FIXTURE_COMMITS). Only this repository's history is used;
// the worktrees borrow today's node_modules, are made under the temp dir and removed at the end. Secrets are test data (`--secrets none`).
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';

/** The commits the suite's fixtures come from, oldest first: the first gateway, the first with the journal, the first with channels, the last before migration 021. */
const FIXTURE_COMMITS = ['80515af', 'edf18ad', 'bfef458', 'e8b20f1'];

const root = path.resolve(import.meta.dirname, '..');
const git = (...args) => {
  const result = spawnSync('git', args, { cwd: root, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout.trim();
};
/** The environment of the old gateway: none of this shell's GATEHOUSE_* settings. */
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('GATEHOUSE_')));

for (const commit of process.argv.slice(2).length > 0 ? process.argv.slice(2) : FIXTURE_COMMITS) await makeFixture(commit);

async function makeFixture(commit) {
  const short = git('rev-parse', '--short=7', `${commit}^{commit}`);
  const tree = path.join(os.tmpdir(), `gh-old-${short}`);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `gh-old-data-${short}-`));
  git('worktree', 'add', '--force', '--detach', tree, short);
  try {
    symlinkSync(realpathSync(path.join(root, 'node_modules')), path.join(tree, 'node_modules'));
    const cli = cliOf(tree, dataDir);
    const written = await writeThroughCommit(cli);
    const schema = compact(dataDir);
    const target = path.join(root, 'tests', 'fixtures', 'databases', short);
    rmSync(target, { recursive: true, force: true });
    mkdirSync(target, { recursive: true });
    const files = ['gatehouse.sqlite', 'simulate.sqlite'].filter((name) => existsSync(path.join(dataDir, name)));
    for (const name of files) copyFileSync(path.join(dataDir, name), path.join(target, name));
    const about = {
      commit: git('rev-parse', short),
      date: git('show', '-s', '--format=%cI', short),
      subject: git('show', '-s', '--format=%s', short),
      madeBy: 'scripts/make-db-fixtures.mjs',
      files: Object.fromEntries(files.map((name) => [name, { bytes: statSync(path.join(target, name)).size, schema: schema[name] }])),
      written,
    };
    writeFileSync(path.join(target, 'fixture.json'), `${JSON.stringify(about, null, 2)}\n`);
    spawnSync(path.join(root, 'node_modules', '.bin', 'prettier'), ['--write', path.join(target, 'fixture.json')], { cwd: root });
    console.log(`${short}: ${files.join(', ')} → ${path.relative(root, target)}`);
  } finally {
    git('worktree', 'remove', '--force', tree);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The old commit's CLI on the temp data dir, with only the flags that commit knows. */
function cliOf(tree, dataDir) {
  const bin = path.join(tree, 'bin', 'gatehouse.mjs');
  const help = spawnSync(process.execPath, [bin, '--help'], { env: cleanEnv, encoding: 'utf8' }).stdout;
  const serveArgs = ['serve', '--port', '0', '--data-dir', dataDir, '--secrets', 'none'];
  if (help.includes('--tls-port')) serveArgs.push('--tls-port', 'off');
  if (help.includes('--settings-file')) serveArgs.push('--settings-file', 'off');
  return {
    hasChannels: help.includes('gatehouse channel'),
    run(args) {
      const result = spawnSync(process.execPath, [bin, ...args, '--data-dir', dataDir], { env: cleanEnv, encoding: 'utf8' });
      if (result.status !== 0) throw new Error(`gatehouse ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
      return result.stdout;
    },
    serve: () => serve(bin, serveArgs),
  };
}

/** Starts the old `gatehouse serve`; resolves with its URL, its first token when it printed one, and stop() (SIGTERM, a clean stop). */
async function serve(bin, args) {
  const child = spawn(process.execPath, [bin, ...args], { env: cleanEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const url = await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const match = /^listening on (http:\/\/\S+)$/m.exec(stdout);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`gatehouse serve exited ${code} before listening:\n${stderr}`)));
  });
  return {
    url,
    firstToken: /sk-gh-[A-Za-z0-9]+/.exec(stdout)?.[0],
    async stop() {
      child.kill('SIGTERM');
      const [code] = await once(child, 'exit');
      if (code !== 0) throw new Error(`gatehouse serve stopped with ${code}:\n${stderr}`);
    },
  };
}

/** Makes the writes a user makes, each through the commit's own API; returns what was written, for the tests to find again. */
async function writeThroughCommit(cli) {
  const first = await cli.serve();
  const token = first.firstToken;
  if (!token) throw new Error('the first start printed no token');
  await first.stop();
  const quotaToken = cli
    .run(['token', 'create', '--account', 'local', '--name', 'fixture-quota', '--quota', '5'])
    .trim()
    .split('\n')
    .at(-1);
  const server = await cli.serve();
  const call = async (method, route, body, as = token) => {
    const response = await fetch(`${server.url}${route}`, {
      method,
      headers: { authorization: `Bearer ${as}`, ...(body && { 'content-type': 'application/json' }) },
      ...(body && { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: await response.json().catch(() => undefined) };
  };
  const ok = (answer, what) => {
    if (answer.status !== 200) throw new Error(`${what}: HTTP ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  const written = {
    at: new Date().toISOString(),
    tokens: { first: token, quota: { secret: quotaToken, name: 'fixture-quota', quotaUsd: 5 } },
  };
  try {
    const group = ok(await call('POST', '/v1/portrait/groups', { name: 'fixture group' }), 'group').data;
    const assetUrl = 'https://cdn.example.com/fixture/anna.png';
    const asset = ok(
      await call('POST', '/v1/portrait/assets', { group_id: group.group_id, url: assetUrl, asset_type: 'Image', name: 'Anna' }),
      'asset',
    ).data;
    written.group = { id: group.group_id, name: 'fixture group' };
    written.asset = { id: asset.asset_id, url: assetUrl, name: 'Anna' };
    const chat = { model: 'sim-chat', messages: [{ role: 'user', content: 'fixture chat' }] };
    const chatAnswer = await call('POST', '/v1/chat/completions', chat, quotaToken);
    if (chatAnswer.status !== 404) {
      ok(chatAnswer, 'chat');
      ok(await call('POST', '/v1/chat/completions', chat), 'chat');
      written.chat = { calls: 2, model: 'sim-chat', byToken: ['fixture-quota', 'first'] };
    }
    const response = await call('POST', '/v1/responses', { model: 'sim-chat', input: 'fixture response' });
    if (response.status !== 404) written.response = { id: ok(response, 'response').id };
    const task = await call('POST', '/v1/3d/generations', { model: 'sim-3d', prompt: 'a fixture teapot' });
    if (task.status !== 404) written.task3d = { id: ok(task, '3D task').task_id, prompt: 'a fixture teapot' };
  } finally {
    await server.stop();
  }
  if (cli.hasChannels) {
    cli.run([
      'channel',
      'add',
      '--name',
      'fixture-channel',
      '--kind',
      'openai',
      '--base-url',
      'https://upstream.invalid/v1',
      '--models',
      'fixture-model',
      '--secrets',
      'none',
    ]);
    written.channel = {
      name: 'fixture-channel',
      kind: 'openai',
      baseUrl: 'https://upstream.invalid/v1',
      models: ['fixture-model'],
      keyless: true,
    };
  }
  return written;
}

/**
 * Folds each file's WAL in and VACUUMs it, so the committed copy is one small file; returns the schema each file records
 * (its schema_migrations versions, and the user_version files kept before that table).
 */
function compact(dataDir) {
  const schema = {};
  for (const name of ['gatehouse.sqlite', 'simulate.sqlite']) {
    const file = path.join(dataDir, name);
    if (!existsSync(file)) continue;
    const db = new Database(file);
    // 1 KiB pages (SQLite's smallest) keep a file of many small tables small; the file is back in WAL mode as the gateway left it.
    db.pragma('journal_mode = DELETE');
    db.pragma('page_size = 1024');
    db.exec('VACUUM');
    db.pragma('journal_mode = WAL');
    const table = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'schema_migrations'").get();
    const versions = table ? db.prepare('SELECT version FROM schema_migrations ORDER BY version').pluck().all() : [];
    schema[name] = { versions, userVersion: db.pragma('user_version', { simple: true }) };
    db.close();
  }
  return schema;
}
