// The CLI bundle: where it lives, whether it still matches the sources it was built from, and starting its build in the background.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The checkout (or installed package) the CLI runs from. */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** A lock older than this belongs to a build that died: the next start takes it over. */
export const BUILD_LOCK_STALE_MS = 120_000;
/** After a failed build, starts run unbundled without trying again for this long. */
export const BUILD_RETRY_AFTER_FAILURE_MS = 300_000;

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
 * The bundle's URL when `<dir>/current.json` names one whose every input (the sources, the packages and this
 * builder) is unchanged: same size, and same modification time or else the same SHA-256. Undefined otherwise.
 */
export function freshBundle(dir = bundleDir()) {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(path.join(dir, 'current.json'), 'utf8'));
  } catch {
    return undefined;
  }
  if (manifest?.version !== 1 || typeof manifest.bundle !== 'string' || !Array.isArray(manifest.inputs)) return undefined;
  for (const [file, size, mtimeMs, sha256] of manifest.inputs) {
    const stat = statSync(file, { throwIfNoEntry: false });
    if (!stat || stat.size !== size) return undefined;
    if (stat.mtimeMs !== mtimeMs && fileHash(file) !== sha256) return undefined;
  }
  const bundle = path.join(dir, path.basename(manifest.bundle));
  return statSync(bundle, { throwIfNoEntry: false }) ? pathToFileURL(bundle) : undefined;
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
    if (ageOf(lock) >= BUILD_LOCK_STALE_MS) {
      try {
        unlinkSync(lock);
      } catch {
        // No lock, or another start took it over first.
      }
    }
    closeSync(openSync(lock, 'wx'));
  } catch {
    return;
  }
  try {
    const child = spawn(process.execPath, [path.join(root, 'bin', 'build-cli-bundle.mjs'), '--lock', lock, '--dir', dir], {
      cwd: root,
      detached: true,
      stdio: 'ignore',
      windowsHide: true,
    });
    child.on('error', () => unlinkSync(lock));
    child.unref();
  } catch {
    unlinkSync(lock);
  }
}
