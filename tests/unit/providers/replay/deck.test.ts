// Unit tests of opening a run's cassette folders: re-recording (--record-replace) is refused on the folder the run replays, however that folder is named.
import assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { CassetteError } from '../../../../shared/cassette.ts';
import { openCassettes } from '../../../../electron/gateway/providers/replay/deck.ts';
import { systemClock } from '../../../../electron/gateway/time.ts';
import { tempDirs } from '../../../helpers/gateway.ts';

const dirs = tempDirs();
after(() => dirs.removeAll());

const open = (record: string, replay: string) =>
  openCassettes({ record: { dir: record, replace: true }, replay: { dir: replay }, clock: systemClock, report: () => undefined });

test('re-recording the replayed folder is refused, through a symbolic link too; another folder is fine', () => {
  const replayed = dirs.fresh();
  const link = path.join(dirs.fresh(), 'tapes');
  symlinkSync(replayed, link);
  for (const named of [replayed, link])
    assert.throws(
      () => open(named, replayed),
      (error: unknown) => error instanceof CassetteError && /cannot be re-recorded over/.test(error.message),
    );
  assert.doesNotThrow(() => open(dirs.fresh(), replayed));
});
