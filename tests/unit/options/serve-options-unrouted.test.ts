// Unit tests of --unrouted: auto by default (refuse while a channel is enabled, else simulate), reject on request by flag, GATEHOUSE_UNROUTED or the settings file, anything else a usage error.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { resolveServeOptions, UsageError } from '../../../electron/gateway/options/serve-options.ts';

const resolve = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  resolveServeOptions([...args, '--settings-file', 'off'], env, '/tmp/gatehouse-none');

test('unrouted models follow auto unless --unrouted or GATEHOUSE_UNROUTED says simulate or reject', () => {
  assert.equal(resolve([]).unrouted, 'auto');
  assert.equal(resolve(['--unrouted', 'reject']).unrouted, 'reject');
  assert.equal(resolve([], { GATEHOUSE_UNROUTED: 'reject' }).unrouted, 'reject');
  assert.equal(resolve(['--unrouted', 'simulate'], { GATEHOUSE_UNROUTED: 'reject' }).unrouted, 'simulate', 'the flag wins');
  assert.throws(
    () => resolve(['--unrouted', 'drop']),
    (error: unknown) => error instanceof UsageError && /--unrouted must be one of auto, simulate, reject/.test(error.message),
  );
});

test('a saved unrouted setting is used when no flag or variable gives one, and a flag pins it', () => {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-unrouted-'));
  try {
    const file = path.join(folder, 'settings.json');
    writeFileSync(file, JSON.stringify({ unrouted: 'reject' }));
    const saved = (args: string[], env: NodeJS.ProcessEnv = {}) => resolveServeOptions([...args, '--settings-file', file], env, folder);
    assert.equal(saved([]).unrouted, 'reject');
    assert.equal(saved([]).pinned.unrouted, undefined);
    assert.equal(saved(['--unrouted', 'simulate']).unrouted, 'simulate', 'the flag wins over the file');
    assert.equal(saved(['--unrouted', 'simulate']).pinned.unrouted, '--unrouted');
    assert.equal(saved([], { GATEHOUSE_UNROUTED: 'simulate' }).pinned.unrouted, 'GATEHOUSE_UNROUTED');
    writeFileSync(file, JSON.stringify({ unrouted: 'drop' }));
    assert.throws(
      () => saved([]),
      (error: unknown) =>
        error instanceof UsageError && /unrouted: Unrouted models must be one of auto, simulate, reject/.test(error.message),
    );
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
