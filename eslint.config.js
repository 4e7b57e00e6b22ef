// Lint rules, including the layering rules: shared/ stands alone, the gateway never imports electron and keeps
// its own layers (LAYERS below), the hosts use only the gateway's entry points, the renderer never imports node or electron.
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

const nodeBuiltins = { group: ['node:*', ...builtinModules], message: 'This layer must not use Node built-ins.' };
const electronModule = { name: 'electron', message: 'Only electron/main and electron/preload may import electron.' };
const noHosts = { group: ['**/main/*', '**/preload/*', '**/renderer/*', '**/cli/*'], message: 'The core does not know its hosts.' };

/** Base modules of the gateway (at its root): any layer may import them; they import nothing of the gateway but each other. */
const BASE = [
  'ids.ts',
  'time.ts',
  'errors.ts',
  'safe-events.ts',
  'principal.ts',
  'private-files.ts',
  'atomic-write.ts',
  'thread-start.ts',
  'hole-writes.ts',
  'process-alive.ts',
];

/**
 * The gateway's layers: each folder may import only the folders (or files) listed, besides itself, the base modules, shared/
 * and npm packages. The composition root (context*.ts, index.ts, config.ts, open-stores.ts, token-admin.ts, options/) may
 * import anything in the gateway; routes/ may also import the GatewayContext type (never a value) from context.ts.
 */
const LAYERS = {
  'protocols/': [],
  'storage/': [],
  'secrets/': [],
  'settings/': [],
  'providers/': ['protocols/', 'storage/', 'workers/'],
  // Listed after providers/ so its rules win for its files: the fixtures room reaches only the seam and the wire formats.
  'providers/fixtures/': ['protocols/', 'providers/types.ts', 'providers/seam/'],
  // Cassettes: the seam, the wire formats, the fixtures' request terms (one reading of a call) and scripted work, translation's outbound wires (a chat cassette rendered to another protocol),
  // and (realtime replay) relay's socket helpers and realtime event reading, so a replayed session is billed as a relayed one.
  'providers/replay/': [
    'protocols/',
    'providers/types.ts',
    'providers/seam/',
    'providers/fixtures/',
    'providers/relay/translate/',
    'providers/relay/socket-bridge.ts',
    'providers/relay/openai/realtime-events.ts',
  ],
  'workers/': ['protocols/', 'providers/simulate/'],
  'services/': ['protocols/', 'storage/', 'secrets/', 'settings/', 'providers/types.ts'],
  'scheduler/': ['services/', 'storage/'],
  'realtime/': ['protocols/', 'services/', 'server/', 'providers/types.ts'],
  'server/': ['protocols/', 'services/', 'providers/types.ts'],
  'routes/': ['protocols/', 'services/', 'server/', 'realtime/', 'providers/types.ts'],
};

/** An entry of LAYERS as a regular expression on the path after the gateway root. */
const entryPattern = (entry) => entry.replaceAll('.', '\\.') + (entry.endsWith('/') ? '' : '$');

/** The no-restricted-imports patterns of `layer` for a file `depth` folders below the gateway root. */
function layerPatterns(layer, depth, nested = 0) {
  const up = `^(\\.\\./){${depth}}`;
  const allowed = [layer, ...LAYERS[layer], ...BASE, '../'].map(entryPattern);
  if (layer === 'routes/') allowed.push('context\\.ts$');
  const listed = LAYERS[layer].length > 0 ? LAYERS[layer].join(', ') + ', ' : '';
  const patterns = [
    noHosts,
    {
      regex: `${up}(?!${allowed.join('|')})`,
      message: `Layering: ${layer} may import only ${listed}the base modules, shared/ and npm packages (see LAYERS in eslint.config.js).`,
    },
  ];
  if (nested > 0) {
    // A nested layer's imports of its parent's other files and folders (`../simulate/…` from providers/fixtures/).
    const parent = layer.split('/').slice(0, -2).join('/') + '/';
    const inParent = [layer, ...LAYERS[layer]]
      .filter((entry) => entry.startsWith(parent))
      .map((entry) => entryPattern(entry.slice(parent.length)));
    patterns.push({
      regex: `^(\\.\\./){${depth - nested}}(?!${[...inParent, '\\.\\./'].join('|')})`,
      message: `Layering: ${layer} may import only ${listed}the base modules, shared/ and npm packages (see LAYERS in eslint.config.js).`,
    });
  }
  if (layer === 'routes/') {
    patterns.push({
      regex: `${up}context\\.ts$`,
      allowTypeImports: true,
      message:
        'Layering: routes/ may import only the GatewayContext type from context.ts (use `import type`), never the composition root itself.',
    });
  }
  return patterns;
}

const restrictImports = (patterns, paths = [electronModule]) => ({ 'no-restricted-imports': ['error', { paths, patterns }] });

/** One config block per layer and folder depth (the depth fixes how many ../ lead back to the gateway root). */
function layerBlocks() {
  const blocks = [];
  for (const layer of Object.keys(LAYERS)) {
    for (let depth = 1; depth <= 5; depth++) {
      blocks.push({
        files: [`electron/gateway/${layer}${'*/'.repeat(depth - 1)}*.ts`],
        // A nested layer (providers/fixtures/) is that many folders further from the gateway root.
        rules: restrictImports(layerPatterns(layer, depth + layer.split('/').length - 2, layer.split('/').length - 2)),
      });
    }
  }
  return blocks;
}

/** The hosts (electron/cli, electron/main, electron/testing) reach the gateway only through its entry points, and never each other. */
const gatewayEntryPoints = {
  regex: '(^|/)gateway/(?!index\\.ts$|options/)',
  message:
    'Layering: electron/cli, electron/main and electron/testing import only the gateway entry points (electron/gateway/index.ts, options/).',
};

export default tseslint.config(
  { ignores: ['node_modules/**', 'out/**', 'dist/**', 'test-artifacts/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronModule],
          patterns: [nodeBuiltins, { group: ['../*', '!./*'], message: 'shared/ imports nothing of ours outside shared/.' }],
        },
      ],
      'no-restricted-globals': ['error', 'window', 'document', 'process', 'Buffer'],
    },
  },
  // The composition root and anything not in a layer: no electron, no hosts.
  { files: ['electron/gateway/**/*.ts'], rules: restrictImports([noHosts]) },
  {
    files: BASE.map((file) => `electron/gateway/${file}`),
    rules: restrictImports([
      noHosts,
      {
        regex: `^\\./(?!${BASE.map(entryPattern).join('|')})`,
        message: 'Layering: the base modules import nothing of the gateway but each other (see BASE in eslint.config.js).',
      },
    ]),
  },
  ...layerBlocks(),
  {
    // V8 makes a function written straight into a property (`x.f = () => ...`) or an object literal's accessor in the
    // old generation: made per call, it keeps what it closes over past every young collection (bench/results/2026-11-26-s5-gc.md).
    files: ['electron/gateway/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "AssignmentExpression[left.type='MemberExpression'][right.type=/^(ArrowFunctionExpression|FunctionExpression)$/]",
          message:
            'Make the function into a local first, then set it (a function written into a property is made old; see CONTRIBUTING.md).',
        },
        {
          selector: 'ObjectExpression > Property[kind=/^(get|set)$/]',
          message:
            "Use a class (accessors on its prototype): an object literal's accessors are made old, per object (see CONTRIBUTING.md).",
        },
        {
          // better-sqlite3's plain call begins a transaction as a read (BEGIN): one that reads before it writes must
          // upgrade at its first write, which SQLite refuses at once with SQLITE_BUSY while another process writes.
          selector: "CallExpression[callee.type='CallExpression'][callee.callee.property.name='transaction']",
          message:
            "Run a write transaction with .immediate() (BEGIN IMMEDIATE: it waits out another process's write, the CLI's, where BEGIN's upgrade fails at once with SQLITE_BUSY).",
        },
      ],
    },
  },
  {
    files: ['electron/cli/**/*.ts'],
    rules: restrictImports([
      gatewayEntryPoints,
      {
        group: ['**/main/*', '**/preload/*', '**/renderer/*', '**/testing/*'],
        message:
          'Layering: electron/cli never imports electron/main, preload, testing or the renderer (a host never reaches into another).',
      },
    ]),
  },
  {
    files: ['electron/testing/**/*.ts'],
    rules: restrictImports([
      gatewayEntryPoints,
      {
        group: ['**/main/*', '**/preload/*', '**/renderer/*', '**/cli/*'],
        message:
          'Layering: electron/testing never imports electron/main, preload, cli or the renderer (a host never reaches into another).',
      },
    ]),
  },
  {
    files: ['electron/main/**/*.ts'],
    rules: restrictImports(
      [
        gatewayEntryPoints,
        {
          group: ['**/cli/*', '**/testing/*'],
          message: 'Layering: electron/main never imports electron/cli or electron/testing (a host never reaches into another).',
        },
      ],
      [],
    ),
  },
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronModule],
          patterns: [nodeBuiltins, { group: ['**/electron/**'], message: 'The renderer talks to the gateway over HTTP only.' }],
        },
      ],
    },
  },
  {
    // Tests read arbitrary JSON answers; `any` there keeps assertions readable.
    files: ['tests/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
