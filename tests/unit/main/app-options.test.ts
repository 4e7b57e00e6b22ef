// The desktop app reads serve's variables and settings file, but leaves out (and names) the serve-only ones: GATEHOUSE_EPHEMERAL would otherwise switch its secret store and settings off on the user's own data.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { desktopOptions } from '../../../electron/main/app-options.ts';

test('GATEHOUSE_EPHEMERAL and GATEHOUSE_READY_JSON are named and left out; the other variables and the settings file still apply', () => {
  const appDir = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-app-options-'));
  try {
    const { options, ignored } = desktopOptions({ GATEHOUSE_EPHEMERAL: '1', GATEHOUSE_READY_JSON: 'on', GATEHOUSE_PORT: '9123' }, appDir);
    assert.deepEqual(ignored, ['GATEHOUSE_EPHEMERAL', 'GATEHOUSE_READY_JSON']);
    assert.equal(options.ephemeral, false);
    assert.equal(options.readyJson, false);
    assert.equal(options.secrets, 'auto', 'the secret store is not switched off');
    assert.equal(options.settingsFile, path.join(appDir, 'settings.json'), 'the settings file is still read');
    assert.equal(options.dataDir, appDir);
    assert.equal(options.port, 9123);

    for (const off of ['', '0', 'false', 'OFF']) {
      const plain = desktopOptions({ GATEHOUSE_EPHEMERAL: off }, appDir);
      assert.deepEqual(plain.ignored, [], `GATEHOUSE_EPHEMERAL=${off} is off: nothing to say`);
      assert.equal(plain.options.ephemeral, false);
    }
  } finally {
    rmSync(appDir, { recursive: true, force: true });
  }
});
