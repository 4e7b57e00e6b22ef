#!/usr/bin/env node
// Builds the CLI bundle (electron/cli/main.ts and everything it imports, in one CommonJS file and a chunk per dynamic import) with rolldown, and the manifest of the inputs that keeps a stale bundle from running.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { bundleDir, fileHash, removeQuietly, ROOT } from './cli-bundle.mjs';

/** A replaced bundle is removed once it is older than this (a start that read the old manifest has long imported it). */
const OLD_BUNDLE_MS = 60_000;
/** An input modified less than this before the build started may not be in it as read: the build is not published. */
const CLOCK_SLACK_MS = 2_000;

/**
 * Packages that stay outside the bundle, required from where they are installed: the native add-ons, and what Fastify
 * requires only on a path the gateway never takes, bytes every start read and never ran: its default schema compilers
 * (ajv and fast-json-stringify, 0.76 MB), for a server without compilers of its own (the gateway's has its own,
 * electron/gateway/server/schema-compilers.ts, which loads them from Fastify's folder on the first schema); pino, for
 * a server with a logger (the gateway's has none); light-my-request, for `inject` (the gateway never injects).
 */
const INSTALLED = new Set([
  'better-sqlite3',
  'keytar',
  '@fastify/ajv-compiler',
  '@fastify/fast-json-stringify-compiler',
  'pino',
  'light-my-request',
]);

/**
 * Node modules that Fastify's server module requires at its top but uses only for an HTTP/2 server, which the gateway
 * never asks Fastify for: in the bundle they load on first use instead. `node:http2` costs 3–7 ms to load in a started
 * gateway on this project's bench machine. Not `node:https`, which Fastify uses only for an HTTPS server too: the
 * gateway's own TLS listener (server/tls/listener.ts) imports it at load, so the bundle's top requires it at every start.
 */
const FASTIFY_SERVER_LAZY = ['node:http2'];

/**
 * Fastify's `lib/server.js` with each FASTIFY_SERVER_LAZY module's `const name = require('…')` made a stand-in that
 * requires the module on its first property read; code without those lines (another Fastify) is returned as it is.
 */
export function lazyFastifyServerModules(code) {
  let lazy = code;
  for (const builtin of FASTIFY_SERVER_LAZY) {
    const name = builtin.slice('node:'.length);
    lazy = lazy.replace(
      `const ${name} = require('${builtin}')`,
      `const ${name} = new Proxy({}, { get: (_, key) => require('${builtin}')[key] })`,
    );
  }
  return lazy;
}

/**
 * Rolldown plugins: the INSTALLED packages are required from their installed file, Fastify's server module loads
 * HTTP/2 on first use, and each module's `import.meta.url`,
 * `dirname` and `filename` become its source file's, so the worker pools' `new URL('./….ts', import.meta.url)`, the
 * console's folder and `createRequire(import.meta.url)` resolve as they do unbundled.
 */
function plugins(root) {
  const rootUrl = pathToFileURL(path.join(root, 'package.json')).href;
  return [
    {
      name: 'gatehouse-installed-external',
      async resolveId(source, importer, options) {
        if (!INSTALLED.has(source)) return null;
        const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
        return resolved && { id: resolved.id, external: true };
      },
    },
    {
      name: 'gatehouse-lazy-fastify-server-modules',
      transform(code, id) {
        return id.endsWith(path.join('node_modules', 'fastify', 'lib', 'server.js')) ? lazyFastifyServerModules(code) : null;
      },
    },
    {
      name: 'gatehouse-source-meta',
      transform(code, id) {
        if (!code.includes('import.meta')) return null;
        const file = id.startsWith('\0') ? path.join(root, 'package.json') : id;
        const url = id.startsWith('\0') ? rootUrl : pathToFileURL(file).href;
        return code
          .replaceAll('import.meta.url', JSON.stringify(url))
          .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(file)))
          .replaceAll('import.meta.filename', JSON.stringify(file));
      },
    },
  ];
}

/** Writes `data` to `file` through a temporary file and a rename: a reader sees the old file or the new one, whole. */
function writeAtomically(file, data) {
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temporary, data);
  renameSync(temporary, file);
}

/** [file, size, mtimeMs, sha256] of each input, or undefined when one changed after `startedAt` (the bundle may not match it). */
function fingerprints(files, startedAt) {
  const inputs = [];
  for (const file of files) {
    const stat = statSync(file);
    if (stat.mtimeMs > startedAt - CLOCK_SLACK_MS) return undefined;
    inputs.push([file, stat.size, stat.mtimeMs, fileHash(file)]);
  }
  return inputs;
}

/** Builds the bundle into `dir`; resolves with its file name, or undefined when an input changed during the build. */
export async function buildCliBundle(dir = bundleDir(), root = ROOT) {
  const startedAt = Date.now();
  const { rolldown } = await import('rolldown');
  const bundle = await rolldown({
    input: path.join(root, 'electron', 'cli', 'main.ts'),
    cwd: root,
    platform: 'node',
    logLevel: 'silent',
    plugins: plugins(root),
  });
  // CommonJS, so the launcher compiles it as a vm.Script whose code cache can be saved after a run (cli-bundle.mjs).
  // What the sources import dynamically (undici, with the first relayed call; the TLS certificates and node-forge,
  // with a TLS listener) is a chunk of its own, read only when first imported: a third of the bundle that a start
  // without them never reads (cli-bundle.mjs keeps each chunk's file open from the start, so a newer build's clean-up
  // cannot take it from a running process).
  // ASCII (non-ASCII escaped where JavaScript allows it, no comments): the launcher then reads it as Latin-1, a
  // fraction of the cost of decoding 5 MB of UTF-8, and V8 keeps it as a one-byte string. Without the whitespace
  // (names kept, nothing rewritten): a fifth fewer bytes to read and to hold as a string at every start, where each
  // fresh megabyte costs about 3 ms on a virtual machine's first touch of its pages.
  const { output } = await bundle.generate({
    format: 'cjs',
    entryFileNames: 'main-[hash].cjs',
    chunkFileNames: 'main-[hash]-[name].cjs',
    charset: 'ascii',
    comments: false,
    minify: { compress: false, mangle: false },
  });
  const files = [...(await bundle.watchFiles)].filter((file) => path.isAbsolute(file));
  await bundle.close();
  // The builder itself and the installed packages' list are inputs too: a new recipe or an `npm install` rebuilds.
  const lockfile = path.join(root, 'node_modules', '.package-lock.json');
  const recipe = [import.meta.filename, path.join(import.meta.dirname, 'cli-bundle.mjs')];
  const inputs = fingerprints(
    [...new Set([...files, ...recipe, ...(statSync(lockfile, { throwIfNoEntry: false }) ? [lockfile] : [])])],
    startedAt,
  );
  if (!inputs) return undefined;
  const main = output.find((chunk) => chunk.type === 'chunk' && chunk.isEntry);
  // Chunks only: an asset (no code) is no file the launcher runs.
  const chunks = output.filter((chunk) => chunk.type === 'chunk' && chunk !== main);
  // The entry last: the files it names are there before it is.
  for (const chunk of [...chunks, main]) writeAtomically(path.join(dir, chunk.fileName), chunk.code);
  const current = new Set([...chunks, main].map((chunk) => chunk.fileName));
  writeAtomically(
    path.join(dir, 'current.json'),
    JSON.stringify({
      version: 1,
      bundle: main.fileName,
      chunks: chunks.map((chunk) => chunk.fileName),
      ascii: [...chunks, main].every((chunk) => !/[^\x00-\x7f]/.test(chunk.code)),
      builtAt: new Date().toISOString(),
      inputs,
    }),
  );
  rmSync(path.join(dir, 'failed'), { force: true });
  for (const entry of readdirSync(dir)) {
    // This build's files and their code caches (`<file>.….codecache`) stay.
    if (current.has(entry.replace(/\.cjs\..*codecache$/, '.cjs')) || !/^main-.*\.[cm]js(\..*codecache)?$|\.tmp$/.test(entry)) continue;
    // Another build may have removed it first.
    const stat = statSync(path.join(dir, entry), { throwIfNoEntry: false });
    if (stat && Date.now() - stat.mtimeMs > OLD_BUNDLE_MS) removeQuietly(path.join(dir, entry));
  }
  return main.fileName;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({ options: { lock: { type: 'string' }, dir: { type: 'string' } } });
  const dir = values.dir ?? bundleDir();
  mkdirSync(dir, { recursive: true });
  try {
    os.setPriority(19);
  } catch {
    // Not allowed here: build at the usual priority.
  }
  try {
    const name = await buildCliBundle(dir);
    console.log(name ? `built ${path.join(dir, name)}` : 'not built: a source changed during the build');
  } catch (error) {
    writeFileSync(path.join(dir, 'failed'), String(error?.stack ?? error));
    console.error(`gatehouse: the CLI bundle was not built (the CLI runs the sources): ${error?.message ?? error}`);
    process.exitCode = 1;
  } finally {
    if (values.lock) rmSync(values.lock, { force: true });
  }
}
