// Integration tests of the arguments `gatehouse serve` refuses: options npm swallowed (`npm start --port 8800` without `--`) and stray words.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, realpathSync, rmSync } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { CLI } from '../helpers/cli.ts';
import { PATIENCE_MS } from '../helpers/eventually.ts';
import { tempDirs } from '../helpers/gateway.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** npm's own script (npm-cli.js) as found on PATH, run with this Node; undefined when there is no npm. */
function npmCli(): string | undefined {
  for (const dir of (process.env['PATH'] ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, 'npm');
    if (existsSync(candidate)) return realpathSync(candidate);
  }
  return undefined;
}
const NPM_CLI = npmCli();
const npmSkip = NPM_CLI?.endsWith('.js') ? false : `no npm (npm-cli.js) on PATH: ${NPM_CLI ?? 'none'}`;
if (npmSkip) console.log(`# the real npm test skips: ${npmSkip}`);

const dirs = tempDirs();

/**
 * Runs `gatehouse ARGS` to its end; a gateway that starts instead of refusing (as before these checks) is stopped with
 * SIGTERM after PATIENCE_MS, so the test fails instead of hanging.
 */
function runCli(args: string[], env: NodeJS.ProcessEnv) {
  const result = spawnSync(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: PATIENCE_MS });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}
after(() => dirs.removeAll());

test('real npm: `npm run serve --port 8800` is refused with the command that passes --port on', { skip: npmSkip }, () => {
  // `serve` has no prestart (no console build); npm keeps --port as its own option exactly as for `npm start`.
  const result = spawnSync(process.execPath, [NPM_CLI!, 'run', 'serve', '--port', '8800'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, GATEHOUSE_DATA_DIR: dirs.fresh(), GATEHOUSE_SETTINGS_FILE: 'off' },
    timeout: PATIENCE_MS,
  });
  assert.notEqual(result.status, 0, 'the gateway did not start on the default port');
  assert.match(
    result.stderr,
    /gatehouse: npm took --port as its own option, so Gatehouse never saw it\. Put -- before Gatehouse's options: npm run serve -- --port 8800/,
  );
  assert.doesNotMatch(result.stdout, /listening on/);
});

test('`npm start --port 8800` as npm runs it (npm_config_port set, 8800 a bare word) is refused with `npm start -- --port 8800`', () => {
  const dataDir = dirs.fresh();
  const result = runCli(['serve', '8800'], {
    npm_lifecycle_event: 'start',
    npm_config_port: 'true',
    GATEHOUSE_DATA_DIR: dataDir,
    GATEHOUSE_SETTINGS_FILE: 'off',
  });
  assert.equal(result.code, 2);
  assert.match(result.stderr, /npm start -- --port 8800\n$/);
  assert.equal(result.stdout, '');
  assert.ok(!existsSync(path.join(dataDir, 'gatehouse.sqlite')), 'nothing was started');
});

test('a stray word after `gatehouse serve` is refused, with the npm form', () => {
  const result = runCli(['serve', '--port', '0', 'extra'], { GATEHOUSE_DATA_DIR: dirs.fresh(), GATEHOUSE_SETTINGS_FILE: 'off' });
  assert.equal(result.code, 2);
  assert.match(
    result.stderr,
    /serve takes no arguments besides its options; got "extra" \(under npm, put -- before the options: npm start -- --port 8800\)/,
  );
});

test('under npm with the options after --, nothing is refused', () => {
  const dataDir = dirs.fresh();
  const result = runCli(['serve', '--port', 'x'], { npm_lifecycle_event: 'start', GATEHOUSE_DATA_DIR: dataDir });
  // The flag reached Gatehouse: its own check answers, not the npm hint.
  assert.equal(result.code, 2);
  assert.match(result.stderr, /--port must be a whole number/);
  rmSync(dataDir, { recursive: true, force: true });
});
