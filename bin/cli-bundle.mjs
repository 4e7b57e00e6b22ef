// The CLI bundle: where it lives, whether it still matches the sources it was built from, and starting its build in the background.
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

/** `require` for the builtins loaded only on a path that needs them. */
const requireHere = createRequire(import.meta.url);

/** The checkout (or installed package) the CLI runs from. */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** A lock older than this belongs to a build that died: the next start takes it over. */
export const BUILD_LOCK_STALE_MS = 120_000;
/** After a failed build, starts run unbundled without trying again for this long. */
export const BUILD_RETRY_AFTER_FAILURE_MS = 300_000;
/** When a run saves its code cache (unless it exits first): one without an accepted cache, or whose cache a shorter run saved at exit. */
export const CODE_CACHE_SAVE_MS = 5_000;

/** The commands that keep a code cache of their own (`electron/cli/main.ts`); any other run shares `other`. */
const COMMANDS = new Set(['serve', 'token', 'channel', 'price', 'fixtures', 'connect', 'cassette', 'console-secret']);

/**
 * The folder of this checkout's bundle: `node_modules/.cache/gatehouse/cli-bundle/<hash of the checkout's path>`
 * (node_modules may be shared by several checkouts). GATEHOUSE_CLI_BUNDLE_DIR puts it elsewhere (the tests do).
 */
export function bundleDir(root = ROOT) {
  const own = process.env.GATEHOUSE_CLI_BUNDLE_DIR;
  if (own) return own;
  const key = createHash('sha256').update(path.resolve(root)).digest('hex').slice(0, 16);
  return path.join(root, 'node_modules', '.cache', 'gatehouse', 'cli-bundle', key);
}

/** GATEHOUSE_CLI_BUNDLE=off runs the sources as they are and never builds the bundle. */
export function bundleEnabled(env = process.env) {
  return env.GATEHOUSE_CLI_BUNDLE !== 'off' && Boolean(process.features.typescript);
}

/** The SHA-256 of a file's bytes, hex. */
export function fileHash(file) {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/**
 * The bundle (its path, its chunks' file names, and `latin1` when it is all ASCII, else `utf8`) when `<dir>/current.json` names one whose
 * every input (the sources, the packages and this builder) is unchanged: same size, and same modification time or
 * else the same SHA-256. Undefined otherwise. An input found unchanged by its hash has its new time kept in the
 * manifest (`rememberTimes`), so the next start checks it by its time alone instead of hashing it again.
 */
export function freshBundle(dir = bundleDir()) {
  const manifestFile = path.join(dir, 'current.json');
  let text;
  let manifest;
  try {
    text = readFileSync(manifestFile, 'utf8');
    manifest = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (manifest?.version !== 1 || typeof manifest.bundle !== 'string' || !Array.isArray(manifest.inputs)) return undefined;
  let retimed = false;
  for (const input of manifest.inputs) {
    const [file, size, mtimeMs, sha256] = input;
    const stat = statSync(file, { throwIfNoEntry: false });
    if (!stat || stat.size !== size) return undefined;
    if (stat.mtimeMs === mtimeMs) continue;
    if (fileHash(file) !== sha256) return undefined;
    input[2] = stat.mtimeMs;
    retimed = true;
  }
  const bundle = path.join(dir, path.basename(manifest.bundle));
  if (!statSync(bundle, { throwIfNoEntry: false })) return undefined;
  const chunks = Array.isArray(manifest.chunks) ? manifest.chunks.map((chunk) => path.basename(String(chunk))) : [];
  if (chunks.some((chunk) => !statSync(path.join(dir, chunk), { throwIfNoEntry: false }))) return undefined;
  if (retimed) rememberTimes(manifestFile, text, manifest);
  return { file: bundle, chunks, encoding: manifest.ascii === true ? 'latin1' : 'utf8' };
}

/**
 * Writes `manifest` (its inputs' new times) over `file` while the file still holds `read` (a build that published a
 * newer manifest meanwhile keeps it); a manifest that cannot be written is left as it was: the next start hashes again.
 */
function rememberTimes(file, read, manifest) {
  try {
    if (readFileSync(file, 'utf8') === read) writeQuietly(file, JSON.stringify(manifest));
  } catch {
    // Gone or unreadable now: nothing to remember.
  }
}

/** How old `file` is, ms (Infinity when it does not exist). */
function ageOf(file) {
  const stat = statSync(file, { throwIfNoEntry: false });
  return stat ? Date.now() - stat.mtimeMs : Infinity;
}

/**
 * Starts `build-cli-bundle.mjs` as a detached, low-priority process that outlives this one, unless a build is under
 * way (its lock is younger than BUILD_LOCK_STALE_MS), one failed within BUILD_RETRY_AFTER_FAILURE_MS, or the folder
 * cannot be written. Never throws: without a bundle the CLI runs the sources.
 */
export function startBundleBuild(dir = bundleDir(), root = ROOT) {
  const lock = path.join(dir, 'build.lock');
  try {
    if (ageOf(path.join(dir, 'failed')) < BUILD_RETRY_AFTER_FAILURE_MS) return;
    mkdirSync(dir, { recursive: true });
    // No lock, or a dead build's (another start may take it over first: then 'wx' below fails).
    if (ageOf(lock) >= BUILD_LOCK_STALE_MS) removeQuietly(lock);
    closeSync(openSync(lock, 'wx'));
  } catch {
    return;
  }
  try {
    // Loaded only here: a start that finds its bundle fresh never spawns, and node:child_process costs every start 1–2 ms.
    const { spawn } = requireHere('node:child_process');
    const child = spawn(process.execPath, [path.join(root, 'bin', 'build-cli-bundle.mjs'), '--lock', lock, '--dir', dir], {
      cwd: root,
      detached: true,
      stdio: 'ignore',
      windowsHide: true,
    });
    child.on('error', () => removeQuietly(lock));
    child.unref();
  } catch {
    removeQuietly(lock);
  }
}

/** Removes a file if it is there; never throws. */
export function removeQuietly(file) {
  try {
    unlinkSync(file);
  } catch {
    // Gone already, or not ours to remove: nothing to do.
  }
}

/**
 * Compiles the bundle (CommonJS) as a vm.Script with the command's code cache (`<bundle>.<command>.codecache`) when
 * there is one V8 accepts, else without, and then saves the cache CODE_CACHE_SAVE_MS later or at exit: unlike Node's
 * compile cache, made before the code runs, it then holds every function the run compiled (what a start runs), so the
 * next start compiles almost nothing. Returns false, having run nothing, when the bundle cannot be read or compiled
 * or one of its chunks cannot be opened; otherwise runs it with `process.argv[1]` set to `entry` and its `require`
 * resolving from the checkout (`bundleRequire`). A chunk is compiled when first imported, with a code cache of its own
 * (`<chunk>.codecache`, made the same way: undici's chunk compiles in 50 ms here without one).
 */
export function runBundle({ file, chunks = [], encoding }, entry, args, root = ROOT) {
  // One cache per command: what `serve` compiles is not what `token list` does, and the first run's is what is kept.
  const command = COMMANDS.has(args[0]) ? args[0] : 'other';
  let script;
  let opened;
  try {
    opened = openChunks(path.dirname(file), chunks);
    script = compileCached(readFileSync(file, encoding), file, `${file}.${command}.codecache`);
  } catch {
    for (const fd of opened?.values() ?? []) closeSync(fd);
    return false;
  }
  process.argv = [process.argv[0], entry, ...args];
  const module = { exports: {} };
  const require = bundleRequire(file, module, opened, encoding, createRequire(path.join(root, 'package.json')));
  script.runInThisContext().call(module.exports, module.exports, require, module, file, path.dirname(file));
  return true;
}

/**
 * `code` (CommonJS, wrapped) compiled as a vm.Script named `file`, with the code cache in `cacheFile` when V8 accepts
 * it; else compiled without, and the cache saved CODE_CACHE_SAVE_MS later or at exit. A cache saved at exit holds only
 * what that run compiled (a `serve` that failed at once, or was stopped before its first call, leaves out what the
 * first answer needs: starts that read such a cache of f199a6c's bundle took 13 ms longer here, 20 ms of CPU), so it
 * keeps how long its run had lived since it compiled the file (`readCodeCache`): a later run that lives FULLER_RUN
 * times as long saves its own at exit, and one that lives past CODE_CACHE_SAVE_MS saves its own then, marked as made by
 * the timer, which no later run replaces. Throws when it does not compile.
 */
function compileCached(code, file, cacheFile) {
  const compiledAt = performance.now();
  const kept = readCodeCache(cacheFile);
  const script = new vm.Script(Module.wrap(code), {
    filename: file,
    cachedData: kept?.cachedData,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const accepted = kept !== undefined && !script.cachedDataRejected;
  if (!accepted || kept.livedMs !== BY_THE_TIMER) {
    const lived = () => performance.now() - compiledAt;
    const save = (livedMs) => {
      clearTimeout(timer);
      process.off('exit', onExit);
      saveCodeCache(script, cacheFile, livedMs);
    };
    const onExit = () => {
      const livedMs = lived();
      if (!accepted || livedMs >= FULLER_RUN * kept.livedMs) save(livedMs);
    };
    // After the start-up and the first calls (before V8 may drop the bytecode of what only the start-up ran), or at exit.
    const timer = setTimeout(() => save(BY_THE_TIMER), CODE_CACHE_SAVE_MS).unref();
    process.once('exit', onExit);
  }
  return script;
}

/** How many times as long as the run that saved a cache at exit a later run must live to save its own in its place. */
export const FULLER_RUN = 1.5;
/** The life a code cache file notes when the CODE_CACHE_SAVE_MS timer saved it. */
export const BY_THE_TIMER = -1;
/**
 * What a code cache file starts with: this mark (a file without it, an older launcher's, is not read), then at
 * CODE_CACHE_LIFE_AT the life of the run that saved it (ms, float64 LE); V8's cache after CODE_CACHE_HEAD_BYTES, a
 * multiple of 8, so it stays aligned as V8 reads it.
 */
export const CODE_CACHE_MARK = 'GHCC1';
export const CODE_CACHE_LIFE_AT = 8;
export const CODE_CACHE_HEAD_BYTES = 16;

/**
 * The code cache in `cacheFile` and how long the run that saved it had lived since it compiled the file (ms;
 * BY_THE_TIMER when the timer saved it); undefined when there is none, or one without the mark. One file, written by
 * one rename: a cache and its run's life never come from two runs.
 */
function readCodeCache(cacheFile) {
  let bytes;
  try {
    bytes = readFileSync(cacheFile);
  } catch {
    return undefined;
  }
  if (bytes.length <= CODE_CACHE_HEAD_BYTES || bytes.toString('latin1', 0, CODE_CACHE_MARK.length) !== CODE_CACHE_MARK) return undefined;
  const livedMs = bytes.readDoubleLE(CODE_CACHE_LIFE_AT);
  return { cachedData: bytes.subarray(CODE_CACHE_HEAD_BYTES), livedMs: Number.isFinite(livedMs) ? livedMs : 0 };
}

/** The bundle's chunks (file names in its folder) opened for reading, by name; throws when one is missing. */
function openChunks(dir, chunks) {
  const opened = new Map();
  try {
    for (const chunk of chunks) opened.set(chunk, openSync(path.join(dir, chunk), 'r'));
  } catch (error) {
    for (const fd of opened.values()) closeSync(fd);
    throw error;
  }
  return opened;
}

/**
 * The `require` the bundle's files run with. A chunk (`./main-….cjs`, what the sources import dynamically) is read on
 * its first import from the descriptor opened at start (a newer build removing the file meanwhile cannot take it from
 * this process: the open descriptor stays readable) and run like the entry; every later import (Rolldown's `import()`
 * requires the chunk again at each call) gives the same exports, or the same error when reading or running it failed:
 * the descriptor is closed after the one read, and a chunk's name never resolves from the checkout. The entry's own
 * name, which a chunk requires for the bundle's shared helpers, gives the entry's exports. Anything else (Node's
 * modules, the native add-ons) resolves from the checkout.
 */
function bundleRequire(file, main, opened, encoding, rootRequire) {
  const dir = path.dirname(file);
  const mainName = `./${path.basename(file)}`;
  // Each chunk's outcome once first required: its module (exports filled while it runs) or the error it failed with.
  const loaded = new Map();
  const require = (id) => {
    if (id === mainName) return main.exports;
    if (!id.startsWith('./')) return rootRequire(id);
    const name = id.slice(2);
    const known = loaded.get(name);
    if (known) {
      if ('error' in known) throw known.error;
      return known.module.exports;
    }
    const fd = opened.get(name);
    if (fd === undefined) return rootRequire(id);
    const module = { exports: {} };
    // Set before it runs: a chunk required again while it runs gets its exports so far, as Node's require gives.
    loaded.set(name, { module });
    opened.delete(name);
    const chunkFile = path.join(dir, name);
    try {
      let code;
      try {
        code = readFileSync(fd, encoding);
      } finally {
        closeSync(fd);
      }
      compileCached(code, chunkFile, `${chunkFile}.codecache`)
        .runInThisContext()
        .call(module.exports, module.exports, require, module, chunkFile, dir);
    } catch (error) {
      loaded.set(name, { error });
      throw error;
    }
    return module.exports;
  };
  return Object.assign(require, rootRequire);
}

/** Writes the script's code cache after its head (the mark, then `livedMs`: see `readCodeCache`); a cache that cannot be written is skipped. */
function saveCodeCache(script, cacheFile, livedMs) {
  const head = Buffer.alloc(CODE_CACHE_HEAD_BYTES);
  head.write(CODE_CACHE_MARK, 'latin1');
  head.writeDoubleLE(livedMs, CODE_CACHE_LIFE_AT);
  writeQuietly(cacheFile, Buffer.concat([head, script.createCachedData()]));
}

/** Writes `data` to `file` through a temporary file and a rename (a reader sees the old file or the new one, whole); never throws. */
function writeQuietly(file, data) {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, data);
    renameSync(temporary, file);
  } catch {
    removeQuietly(temporary);
  }
}
