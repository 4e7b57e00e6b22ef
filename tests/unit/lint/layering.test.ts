// The layering rules of eslint.config.js bite: wrong imports placed (as text) in each layer are errors naming the rule, allowed ones pass.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { ESLint } from 'eslint';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const eslint = new ESLint({ cwd: ROOT });

/** The no-restricted-imports messages for `code` linted as if it were the file at `file` (relative to the repo). */
async function restrictions(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result!.messages.filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message);
}

/** Asserts exactly one layering error whose message contains `expected`. */
async function assertRefused(file: string, code: string, expected: string): Promise<void> {
  const messages = await restrictions(file, code);
  assert.equal(messages.length, 1, `${file}: ${JSON.stringify(messages)}`);
  assert.ok(messages[0]!.includes(expected), `${file}: ${messages[0]}`);
}

test('storage/ importing routes/ is refused with the storage layer message', async () => {
  await assertRefused(
    'electron/gateway/storage/layering-fixture.ts',
    "import { ROUTE_FAMILIES } from '../routes/index.ts';\nexport const families = ROUTE_FAMILIES;\n",
    'Layering: storage/ may import only the base modules',
  );
});

test('a deeper file counts its way back to the gateway root: providers/simulate/text importing routes/ is refused', async () => {
  await assertRefused(
    'electron/gateway/providers/simulate/text/layering-fixture.ts',
    "import { ROUTE_FAMILIES } from '../../../routes/index.ts';\nexport const families = ROUTE_FAMILIES;\n",
    'Layering: providers/ may import only protocols/, storage/, workers/',
  );
});

test('routes/ importing providers/simulate is refused (outside the temporary list)', async () => {
  await assertRefused(
    'electron/gateway/routes/layering-fixture.ts',
    "import { SIM_MODELS } from '../providers/simulate/models.ts';\nexport const models = SIM_MODELS;\n",
    'Layering: routes/ may import only',
  );
});

test('routes/ may take the GatewayContext type from context.ts, but no value', async () => {
  assert.deepEqual(
    await restrictions(
      'electron/gateway/routes/layering-fixture.ts',
      "import type { GatewayContext } from '../context.ts';\nexport type Context = GatewayContext;\n",
    ),
    [],
  );
  await assertRefused(
    'electron/gateway/routes/layering-fixture.ts',
    "import { createContext } from '../context.ts';\nexport const make = createContext;\n",
    'routes/ may import only the GatewayContext type from context.ts',
  );
});

test('services/ may import providers/types.ts, protocols/ and storage/ but not providers/simulate or the scheduler', async () => {
  const allowed = [
    "import type { ChatProvider } from '../providers/types.ts';",
    "import type { ChatRequest } from '../protocols/neutral/chat.ts';",
    "import type { Db } from '../storage/database.ts';",
    "import { invalid } from '../errors.ts';",
    "import type { Asset } from '../../../shared/portrait.ts';",
    'export type All = [ChatProvider, ChatRequest, Db, Asset, typeof invalid];',
  ].join('\n');
  assert.deepEqual(await restrictions('electron/gateway/services/layering-fixture.ts', allowed), []);
  await assertRefused(
    'electron/gateway/services/layering-fixture.ts',
    "import type { RefreshScheduler } from '../scheduler/refresh-scheduler.ts';\nexport type S = RefreshScheduler;\n",
    'Layering: services/ may import only',
  );
  await assertRefused(
    'electron/gateway/services/layering-fixture.ts',
    "import { SIM_MODELS } from '../providers/simulate/models.ts';\nexport const models = SIM_MODELS;\n",
    'Layering: services/ may import only',
  );
});

test('a base module importing a layer is refused', async () => {
  await assertRefused(
    'electron/gateway/ids.ts',
    "import type { Db } from './storage/database.ts';\nexport type D = Db;\n",
    'Layering: the base modules import nothing of the gateway',
  );
});

test('hosts: electron/main importing electron/cli, or a gateway internal, is refused; the entry points are allowed', async () => {
  await assertRefused(
    'electron/main/layering-fixture.ts',
    "import { parseServeOptions } from '../cli/options.ts';\nexport const parse = parseServeOptions;\n",
    'Layering: electron/main never imports electron/cli',
  );
  await assertRefused(
    'electron/cli/layering-fixture.ts',
    "import { openDatabase } from '../gateway/storage/database.ts';\nexport const open = openDatabase;\n",
    'Layering: electron/cli, electron/main and electron/testing import only the gateway entry points',
  );
  const entryPoints = [
    "import { createGateway } from '../gateway/index.ts';",
    "import { resolveServeOptions } from '../gateway/options/serve-options.ts';",
    'export const both = [createGateway, resolveServeOptions];',
  ].join('\n');
  assert.deepEqual(await restrictions('electron/main/layering-fixture.ts', entryPoints), []);
  assert.deepEqual(await restrictions('electron/cli/layering-fixture.ts', entryPoints), []);
});

test('hosts: electron/testing uses only the gateway entry points, and no host imports it or is imported by it', async () => {
  await assertRefused(
    'electron/testing/layering-fixture.ts',
    "import { FixtureStore } from '../gateway/providers/fixtures/store.ts';\nexport const store = FixtureStore;\n",
    'Layering: electron/cli, electron/main and electron/testing import only the gateway entry points',
  );
  await assertRefused(
    'electron/testing/layering-fixture.ts',
    "import { serve } from '../cli/serve.ts';\nexport const run = serve;\n",
    'Layering: electron/testing never imports electron/main, preload, cli or the renderer',
  );
  await assertRefused(
    'electron/cli/layering-fixture.ts',
    "import { startGatehouse } from '../testing/index.ts';\nexport const start = startGatehouse;\n",
    'Layering: electron/cli never imports electron/main, preload, testing or the renderer',
  );
  await assertRefused(
    'electron/main/layering-fixture.ts',
    "import { startGatehouse } from '../testing/index.ts';\nexport const start = startGatehouse;\n",
    'Layering: electron/main never imports electron/cli or electron/testing',
  );
  const allowed = [
    "import { createGateway } from '../gateway/index.ts';",
    "import type { FixtureListing } from '../../shared/fixtures.ts';",
    'export const start = createGateway;',
    'export type Listing = FixtureListing;',
  ].join('\n');
  assert.deepEqual(await restrictions('electron/testing/layering-fixture.ts', allowed), []);
});

test('the nested providers/fixtures/ room reaches the seam and protocols/ only: the simulator, relay, storage and server are refused', async () => {
  const file = 'electron/gateway/providers/fixtures/families/layering-fixture.ts';
  const allowed = [
    "import type { CallContext } from '../../types.ts';",
    "import { MODERATION_CATEGORIES } from '../../seam/media.ts';",
    "import { streamPieces } from '../../../protocols/neutral/stream-pieces.ts';",
    "import { Problems } from '../problems.ts';",
  ];
  assert.deepEqual(await restrictions(file, `${allowed.join('\n')}\n`), []);
  for (const refused of [
    "import { SimulatedChat } from '../../simulate/chat.ts';",
    "import { relayBundle } from '../../relay/index.ts';",
    "import { Db } from '../../../storage/database.ts';",
  ]) {
    await assertRefused(
      file,
      `${refused}\n`,
      'Layering: providers/fixtures/ may import only protocols/, providers/types.ts, providers/seam/',
    );
  }
});
