// Integration test of a serving gateway's WAL checkpoints: its calls' charges reach the database file from the checkpoint thread, and a stopped gateway leaves no WAL.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import OpenAI from 'openai';
import { DATABASE_FILE } from '../../electron/gateway/storage/database.ts';
import { countInFileAlone } from '../helpers/database.ts';
import { eventually } from '../helpers/eventually.ts';
import { startGateway, tempDirs } from '../helpers/gateway.ts';

const dirs = tempDirs();
after(() => dirs.removeAll());

test('a serving gateway’s charges reach the database file without waiting for SQLite’s 1,000-page checkpoint, and stopping leaves no WAL', async () => {
  const server = await startGateway({ dataDir: dirs.fresh() });
  const client = new OpenAI({ apiKey: server.token, baseURL: `${server.url}/v1`, maxRetries: 0 });
  for (let i = 0; i < 5; i += 1) {
    await client.chat.completions.create({ model: 'sim-chat', messages: [{ role: 'user', content: `checkpoint me ${i}` }] });
  }
  const file = path.join(server.dataDir, DATABASE_FILE);
  try {
    // (The journal has a file of its own, journal.sqlite, written by its own thread.)
    await eventually(() => countInFileAlone(file, 'SELECT count(*) FROM usage_records') === 5, 'the 5 charges in the database file');
  } finally {
    await server.stop({ keepData: true });
  }
  assert.equal(existsSync(`${file}-wal`), false, 'the WAL is folded in and removed');
});
