// Integration tests of the CLI bundle: a bundle runs only while every input it was built from is unchanged (a touched input hashed once), a built one serves the gateway with its worker threads and its chunks (loaded on first use, even once a newer build removed their files, by concurrent first calls and again by an in-process restart), its entry leaves out what a start never runs, and a failed build leaves the CLI running its sources.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';
import https from 'node:https';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import OpenAI from 'openai';
import { adminTokenOf, firstTokenOf, privateServeArgs, runCli, runCliAsync, serveCli } from '../helpers/cli.ts';
import { request, startGateway } from '../helpers/gateway.ts';
import { eventually } from '../helpers/eventually.ts';

const BUILDER = fileURLToPath(new URL('../../bin/build-cli-bundle.mjs', import.meta.url));
const { BY_THE_TIMER, CODE_CACHE_HEAD_BYTES, CODE_CACHE_LIFE_AT, CODE_CACHE_MARK, CODE_CACHE_SAVE_MS } = (await import(
  new URL('../../bin/cli-bundle.mjs', import.meta.url).href
)) as {
  BY_THE_TIMER: number;
  CODE_CACHE_HEAD_BYTES: number;
  CODE_CACHE_LIFE_AT: number;
  CODE_CACHE_MARK: string;
  CODE_CACHE_SAVE_MS: number;
};

/** A GET over HTTPS trusting `ca`, with a bearer token: its status. */
async function httpsGet(url: string, token: string, ca: Buffer): Promise<{ status: number }> {
  const response = await new Promise<IncomingMessage>((resolve, reject) =>
    https.get(url, { ca, headers: { authorization: `Bearer ${token}` } }, resolve).on('error', reject),
  );
  response.resume();
  await once(response, 'end');
  return { status: response.statusCode! };
}

describe('the gatehouse CLI bundle', () => {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-cli-bundle-'));
  after(() => rmSync(scratch, { recursive: true, force: true }));
  let made = 0;
  const freshDir = () => {
    const dir = path.join(scratch, String(made++));
    mkdirSync(dir);
    return dir;
  };
  const sourcesUsage = runCli(['--help'], { GATEHOUSE_CLI_BUNDLE: 'off' }).stdout;

  type Manifest = { bundle: string; chunks: string[]; ascii: boolean; inputs: [string][] };
  /** Builds the bundle into a fresh folder, as a start's background build does; the folder and its manifest. */
  function buildBundle(): { dir: string; manifest: Manifest } {
    const dir = freshDir();
    const build = spawnSync(process.execPath, [BUILDER, '--dir', dir], { encoding: 'utf8' });
    assert.equal(build.status, 0, build.stderr);
    return { dir, manifest: JSON.parse(readFileSync(path.join(dir, 'current.json'), 'utf8')) as Manifest };
  }
  /** One build for the tests that only read it. */
  let readOnlyBuild: { dir: string; manifest: Manifest; entry: string } | undefined;
  function builtEntry(): { dir: string; manifest: Manifest; entry: string } {
    if (!readOnlyBuild) {
      const { dir, manifest } = buildBundle();
      readOnlyBuild = { dir, manifest, entry: readFileSync(path.join(dir, manifest.bundle), 'latin1') };
    }
    return readOnlyBuild;
  }

  /** A bundle folder whose bundle only says it ran, built "from" one input file. */
  function fakeBundle(): { dir: string; input: string } {
    const dir = freshDir();
    const input = path.join(dir, 'input.txt');
    writeFileSync(input, 'one');
    writeFileSync(path.join(dir, 'main-fake.cjs'), "process.stdout.write(`the bundle ran: ${process.argv.slice(2).join(' ')}\\n`);\n");
    const stat = statSync(input);
    const sha256 = createHash('sha256').update('one').digest('hex');
    writeFileSync(
      path.join(dir, 'current.json'),
      JSON.stringify({ version: 1, bundle: 'main-fake.cjs', inputs: [[input, stat.size, stat.mtimeMs, sha256]] }),
    );
    return { dir, input };
  }

  test('a bundle runs while its inputs are unchanged (a touched file with the same bytes included), never once one changed', () => {
    const { dir, input } = fakeBundle();
    const env = { GATEHOUSE_CLI_BUNDLE_DIR: dir };
    assert.equal(runCli(['--help'], env).stdout, 'the bundle ran: --help\n');
    assert.equal(runCli(['--help'], { ...env, GATEHOUSE_CLI_BUNDLE: 'off' }).stdout, sourcesUsage);

    // A file that is no code cache of this launcher's (garbage here) is not read, and replaced by a good one at exit.
    const cache = path.join(dir, 'main-fake.cjs.other.codecache');
    writeFileSync(cache, 'not a code cache');
    assert.equal(runCli(['--help'], env).stdout, 'the bundle ran: --help\n');
    assert.equal(readFileSync(cache).toString('latin1', 0, CODE_CACHE_MARK.length), CODE_CACHE_MARK);
    // One V8 refuses, under a head that says the timer saved it (what no later run replaces once V8 takes it): replaced
    // at exit all the same.
    const refused = Buffer.alloc(CODE_CACHE_HEAD_BYTES + 64, 7);
    refused.write(CODE_CACHE_MARK, 'latin1');
    refused.writeDoubleLE(BY_THE_TIMER, CODE_CACHE_LIFE_AT);
    writeFileSync(cache, refused);
    assert.equal(runCli(['--help'], env).stdout, 'the bundle ran: --help\n');
    assert.notDeepEqual(readFileSync(cache), refused);
    assert.ok(readFileSync(cache).readDoubleLE(CODE_CACHE_LIFE_AT) > 0, "saved at exit, with its run's life");

    const later = new Date(Date.now() + 60_000);
    utimesSync(input, later, later);
    assert.equal(runCli(['--help'], env).stdout, 'the bundle ran: --help\n');

    // A build under way (its lock): the stale bundle is not rebuilt by these runs, which run the sources.
    writeFileSync(path.join(dir, 'build.lock'), '');
    writeFileSync(input, 'two');
    const stale = runCli(['--help'], env);
    assert.equal(stale.code, 0);
    assert.equal(stale.stdout, sourcesUsage);
    rmSync(input);
    assert.equal(runCli(['--help'], env).stdout, sourcesUsage);
  });

  test('a code cache saved at exit keeps how long its run lived: a run FULLER_RUN times as long, or past CODE_CACHE_SAVE_MS, saves its own in its place', () => {
    const { dir } = fakeBundle();
    const env = { GATEHOUSE_CLI_BUNDLE_DIR: dir };
    const cache = path.join(dir, 'main-fake.cjs.other.codecache');
    /** The life the cache file notes for the run that saved it (ms; BY_THE_TIMER when the timer saved it). */
    const livedOf = () => {
      const bytes = readFileSync(cache);
      assert.equal(bytes.toString('latin1', 0, CODE_CACHE_MARK.length), CODE_CACHE_MARK);
      return bytes.readDoubleLE(CODE_CACHE_LIFE_AT);
    };
    const noteLived = (ms: number) => {
      const bytes = readFileSync(cache);
      bytes.writeDoubleLE(ms, CODE_CACHE_LIFE_AT);
      writeFileSync(cache, bytes);
    };

    // A short run (what a failed or stopped start is): its cache is saved at exit, with how long it lived.
    assert.equal(runCli(['--help'], env).stdout, 'the bundle ran: --help\n');
    assert.ok(livedOf() > 0);

    // A run not FULLER_RUN times as long as the one that saved the cache keeps it (that one is said to have lived 10 minutes).
    noteLived(600_000);
    const kept = readFileSync(cache);
    assert.equal(runCli(['--help'], env).stdout, 'the bundle ran: --help\n');
    assert.deepEqual(readFileSync(cache), kept);

    // A run FULLER_RUN times as long (the saving run said to have lived a microsecond) saves its own cache and its own life.
    noteLived(0.001);
    assert.equal(runCli(['--help'], env).stdout, 'the bundle ran: --help\n');
    assert.ok(livedOf() > 0.001);

    // A cache without the mark (an older launcher's) is not read: the run saves its own.
    writeFileSync(cache, readFileSync(cache).subarray(CODE_CACHE_HEAD_BYTES));
    assert.equal(runCli(['--help'], env).stdout, 'the bundle ran: --help\n');
    assert.ok(livedOf() > 0);

    // A run that lives past CODE_CACHE_SAVE_MS saves at that time, marked as the timer's: no later run replaces it.
    writeFileSync(
      path.join(dir, 'main-fake.cjs'),
      `setTimeout(() => process.stdout.write('the bundle lingered\\n'), ${CODE_CACHE_SAVE_MS + 300});\n`,
    );
    assert.equal(runCli(['--help'], env).stdout, 'the bundle lingered\n');
    assert.equal(livedOf(), BY_THE_TIMER);
    const timers = readFileSync(cache);
    assert.equal(runCli(['--help'], env).stdout, 'the bundle lingered\n');
    assert.deepEqual(readFileSync(cache), timers);
    // The same once the cache says a short run saved it: the timer saves it again.
    noteLived(600_000);
    assert.equal(runCli(['--help'], env).stdout, 'the bundle lingered\n');
    assert.equal(livedOf(), BY_THE_TIMER);
  });

  test('an input touched with the same bytes is hashed once: its new time is kept, and the next start checks it by its time alone', () => {
    const { dir, input } = fakeBundle();
    const env = { GATEHOUSE_CLI_BUNDLE_DIR: dir };
    const later = new Date(Date.now() + 60_000);
    utimesSync(input, later, later);
    assert.equal(runCli(['--help'], env).stdout, 'the bundle ran: --help\n');
    const [[, , kept]] = JSON.parse(readFileSync(path.join(dir, 'current.json'), 'utf8')).inputs;
    assert.equal(kept, statSync(input).mtimeMs, 'the manifest holds the time the hash was checked at');
    // Other bytes of the same size under the same time: a start that only looks at the time cannot tell (a hash would).
    writeFileSync(input, 'six');
    utimesSync(input, later, later);
    assert.equal(runCli(['--help'], env).stdout, 'the bundle ran: --help\n', 'no hash read on the second start');
  });

  test('a failed build or an unwritable folder leaves the CLI running its sources, with the same output', async () => {
    const file = path.join(scratch, 'a-file');
    writeFileSync(file, '');
    const unwritable = runCli(['--help'], { GATEHOUSE_CLI_BUNDLE_DIR: path.join(file, 'bundle') });
    assert.deepEqual([unwritable.code, unwritable.stdout, unwritable.stderr], [0, sourcesUsage, '']);

    // current.json is a folder: the build cannot publish its manifest and fails.
    const dir = freshDir();
    mkdirSync(path.join(dir, 'current.json'));
    const first = runCli(['--help'], { GATEHOUSE_CLI_BUNDLE_DIR: dir });
    assert.deepEqual([first.code, first.stdout, first.stderr], [0, sourcesUsage, '']);
    await eventually(
      () => existsSync(path.join(dir, 'failed')) && !existsSync(path.join(dir, 'build.lock')),
      'the background build failed and released its lock',
      { withinMs: 120_000, everyMs: 100 },
    );
    const again = runCli(['--help'], { GATEHOUSE_CLI_BUNDLE_DIR: dir });
    assert.deepEqual([again.code, again.stdout, again.stderr], [0, sourcesUsage, '']);
    assert.ok(!existsSync(path.join(dir, 'build.lock')), 'no new build starts right after a failed one');
  });

  test('a built bundle serves the gateway, its media worker and its WAL checkpoint thread included', async () => {
    const { dir, manifest } = buildBundle();
    // Read as Latin-1 (cheaper than UTF-8) only because it is all ASCII: the sources' non-ASCII text is escaped in it.
    assert.equal(manifest.ascii, true);
    assert.doesNotMatch(readFileSync(path.join(dir, manifest.bundle), 'latin1'), /[^\x00-\x7f]/);
    assert.ok(
      manifest.inputs.some(([file]) => file.endsWith(path.join('electron', 'gateway', 'storage', 'wal-checkpoint.ts'))),
      'the sources are among the inputs',
    );
    // Marks the built file, so this test sees that it is what runs.
    appendFileSync(path.join(dir, manifest.bundle), "\nprocess.stderr.write('marked bundle ran\\n');\n");

    const dataDir = freshDir();
    const server = await serveCli(privateServeArgs(dataDir), { GATEHOUSE_CLI_BUNDLE_DIR: dir });
    try {
      const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: firstTokenOf(server), maxRetries: 0 });
      assert.ok((await client.models.list()).data.length > 0);
      const chat = await client.chat.completions.create({ model: 'sim-chat', messages: [{ role: 'user', content: 'Hello' }] });
      assert.ok(chat.choices[0]!.message.content);
      const speech = Buffer.from(
        await (await client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'Hello', response_format: 'mp3' })).arrayBuffer(),
      );
      assert.ok(speech.length > 100, 'the media worker encoded the speech');
    } finally {
      assert.equal(await server.stop('SIGTERM'), 0, server.stderr());
    }
    assert.match(server.stderr(), /^marked bundle ran$/m);
    const rotated = runCli(['console-secret', 'rotate', '--data-dir', dataDir, '--secrets', 'file'], { GATEHOUSE_CLI_BUNDLE_DIR: dir });
    assert.match(rotated.stderr, /^marked bundle ran$/m);
    assert.match(rotated.stdout, /the console’s Settings page/, 'a message with a non-ASCII character prints as in the sources');
    assert.ok(existsSync(path.join(dir, `${manifest.bundle}.serve.codecache`)), 'the run saved its code cache for the next start of serve');
    assert.doesNotMatch(server.stderr(), /^error: /m, 'no worker failed to start');
  });

  test("in the bundle, Fastify's server module loads HTTP/2 on its first use, as the same module", async () => {
    const { lazyFastifyServerModules } = (await import(pathToFileURL(BUILDER).href)) as {
      lazyFastifyServerModules: (code: string) => string;
    };
    const require = createRequire(import.meta.url);
    const source = readFileSync(require.resolve('fastify/lib/server.js'), 'utf8');
    const lazy = lazyFastifyServerModules(source);
    assert.match(source, /^const http2 = require\('node:http2'\)$/m, 'the installed Fastify loads it at its top');
    const standIn = /^const http2 = (new Proxy\(.*\))$/m.exec(lazy)?.[1];
    assert.ok(standIn, 'http2 became a stand-in');
    const made = new Function('require', `return ${standIn}`)(require) as Record<string, unknown>;
    const real = require('node:http2') as Record<string, unknown>;
    assert.equal(made.createServer, real.createServer);
    assert.equal(made.createSecureServer, real.createSecureServer);
    assert.equal(lazyFastifyServerModules('const other = 1'), 'const other = 1', 'code without those lines is left as it is');

    // The build applies it: the entry holds the stand-in, and requires node:http2 nowhere else (no top-level require).
    const { entry } = builtEntry();
    assert.match(entry, /const http2=new Proxy\(\{\},\{get:\(_,key\)=>require\("node:http2"\)\[key\]\}\)/);
    assert.equal(entry.match(/require\(["']node:http2["']\)/g)?.length, 1, 'the stand-in is the only require of node:http2');
  });

  test("the built entry leaves out what a start never runs: lamejs, pino, light-my-request and Fastify's default compilers", async () => {
    const { entry } = builtEntry();
    const require = createRequire(import.meta.url);
    // Fastify's own dependencies, as Fastify resolves them.
    const fromFastify = createRequire(require.resolve('fastify'));
    const ajvCompiler = fromFastify.resolve('@fastify/ajv-compiler');
    const serializerCompiler = path.join(path.dirname(fromFastify.resolve('@fastify/fast-json-stringify-compiler')), 'standalone.js');
    // Each pattern matches the package's own code (names survive the whitespace-only minification), so it would match
    // the entry if the package crept back in.
    for (const [what, pattern, file] of [
      ['lamejs', /\bMp3Encoder\b/, fileURLToPath(import.meta.resolve('@breezystack/lamejs'))],
      ['pino', /function pino\s*\(/, require.resolve('pino')],
      ['light-my-request', /function inject\s*\(\s*dispatchFunc\b/, fromFastify.resolve('light-my-request')],
      ['the ajv compiler', /function AjvCompiler\s*\(/, ajvCompiler],
      ['the serializer compiler', /function SerializerSelector\s*\(/, serializerCompiler],
    ] as const) {
      assert.match(readFileSync(file, 'utf8'), pattern, `the pattern for ${what} matches its own file`);
      assert.doesNotMatch(entry, pattern, `${what} is not in the entry`);
    }
  });

  test("the bundle's chunks load on first use, from the files opened at start even once a newer build removed them, for every import of them", async () => {
    const { dir, manifest } = buildBundle();
    const undiciChunk = manifest.chunks.find((chunk) => chunk.endsWith('-undici.cjs'));
    assert.ok(undiciChunk, 'undici (imported with the first relayed call) is a chunk of its own');
    assert.ok(
      manifest.chunks.some((chunk) => chunk.endsWith('-certificates.cjs')),
      'so are the TLS certificates',
    );
    // undici's own definition, minified or not: found in its chunk, not in the entry.
    const undiciDefinition = /getGlobalDispatcher\s*\(\)\s*\{/;
    assert.match(readFileSync(path.join(dir, undiciChunk), 'latin1'), undiciDefinition, 'the pattern finds undici in its chunk');
    assert.doesNotMatch(readFileSync(path.join(dir, manifest.bundle), 'latin1'), undiciDefinition, 'undici is not in the entry');

    const upstream = await startGateway();
    const dataDir = freshDir();
    // TLS on: the certificates' chunk runs at start.
    const args = [...privateServeArgs(dataDir, { secrets: 'file' })];
    args[args.indexOf('--tls-port') + 1] = '0';
    const server = await serveCli(args, { GATEHOUSE_CLI_BUNDLE_DIR: dir });
    const tlsLines = () => server.stdout.filter((line) => line.startsWith('tls listening on https://'));
    try {
      await eventually(() => tlsLines().length === 1, 'the TLS listener started');
      // What a newer build's clean-up does to a replaced bundle's files while this server runs.
      for (const chunk of manifest.chunks) rmSync(path.join(dir, chunk));
      const added = await runCliAsync(
        [
          ...['channel', 'add', '--name', 'upstream', '--kind', 'openai', '--base-url', `${upstream.url}/v1`],
          ...['--models', 'relay-echo=sim-echo', '--key-env', 'UPSTREAM_KEY', '--data-dir', dataDir, '--secrets', 'file'],
        ],
        { UPSTREAM_KEY: upstream.token, GATEHOUSE_CLI_BUNDLE: 'off' },
      );
      assert.equal(added.code, 0, added.stderr);
      const relay = (url: string, content: string) =>
        new OpenAI({ baseURL: `${url}/v1`, apiKey: firstTokenOf(server), maxRetries: 0 }).chat.completions
          .create({ model: 'relay-echo', messages: [{ role: 'user', content }] })
          .then((answer) => answer.choices[0]!.message.content);
      // The first relayed calls, fired at once: each that starts before undici is loaded imports it (its chunk required again).
      const contents = Array.from({ length: 8 }, (_, index) => `relayed ${index}`);
      assert.deepEqual(
        await Promise.all(contents.map((content) => relay(server.url, content))),
        contents,
        'every first relayed call loaded undici from its chunk',
      );

      // An in-process restart with TLS on imports the certificates' chunk a second time.
      const adminToken = await adminTokenOf(server);
      assert.equal((await request(`${server.url}/admin/api/restart`, 'POST', { token: adminToken })).status, 200);
      await eventually(() => tlsLines().length === 2, "the restarted run's TLS listener started", { withinMs: 60_000 });
      const restartedUrl = server.stdout.findLast((line) => line.startsWith('listening on http://'))!.slice('listening on '.length);
      assert.equal(await relay(restartedUrl, 'after the restart'), 'after the restart');
      const tlsUrl = tlsLines()[1]!.slice('tls listening on '.length);
      const models = await httpsGet(`${tlsUrl}/v1/models`, firstTokenOf(server), readFileSync(path.join(dataDir, 'tls', 'ca.pem')));
      assert.equal(models.status, 200, 'the restarted TLS listener answers');
    } finally {
      // Both stopped before asserting, so a failure leaves no server running in this process.
      const code = await server.stop('SIGTERM');
      await upstream.stop();
      assert.equal(code, 0, server.stderr());
    }
    assert.doesNotMatch(server.stderr(), /^error: /m);
    assert.ok(
      existsSync(path.join(dir, `${undiciChunk}.codecache`)),
      "the run saved the chunk's code cache for the next first relayed call",
    );
    // A bundle whose chunk is gone is stale (its first relayed call could not load): the sources run, and the bundle is
    // built again for the next start.
    assert.equal(runCli(['--help'], { GATEHOUSE_CLI_BUNDLE_DIR: dir }).stdout, sourcesUsage);
    await eventually(
      () => {
        if (existsSync(path.join(dir, 'build.lock'))) return false;
        const rebuilt = JSON.parse(readFileSync(path.join(dir, 'current.json'), 'utf8')) as { chunks: string[] };
        return rebuilt.chunks.every((chunk) => existsSync(path.join(dir, chunk)));
      },
      'the bundle was built again, its chunks with it',
      { withinMs: 120_000, everyMs: 100 },
    );
  });
});
