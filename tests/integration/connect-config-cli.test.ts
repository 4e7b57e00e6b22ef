// `gatehouse connect` on a temporary home folder: each tool's config merged (the user's other settings kept), shown by --dry-run, the tool's token reused, --undo restoring the files byte for byte, and the URL of the serve running on the data dir used by default.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { privateServeArgs, runCli, runCliAsync, serveCli } from '../helpers/cli.ts';
import { tempDirs } from '../helpers/gateway.ts';

const dirs = tempDirs();
after(() => dirs.removeAll());

const GATEWAY = 'http://127.0.0.1:18790';

/** A fresh home folder and data dir, and `gatehouse connect` run on them (a file secret store, so the tool's token can be reused). */
function sandbox() {
  const home = dirs.fresh();
  const dataDir = dirs.fresh();
  const connect = (...args: string[]) =>
    runCli(['connect', ...args, '--data-dir', dataDir, '--secrets', 'file', '--url', GATEWAY], { GATEHOUSE_HOME_DIR: home });
  const file = (relative: string) => path.join(home, relative);
  const seed = (relative: string, text: string) => {
    mkdirSync(path.dirname(file(relative)), { recursive: true });
    writeFileSync(file(relative), text);
  };
  const read = (relative: string) => (existsSync(file(relative)) ? readFileSync(file(relative), 'utf8') : null);
  const tokens = () => runCli(['token', 'list', '--data-dir', dataDir]).stdout;
  return { home, connect, seed, read, tokens };
}

// The user's own files, written unlike the tools write them (spacing, key order), so a restore that re-serialises shows.
const CLAUDE_BEFORE =
  '{"theme":"dark",  "env": {"FOO": "1", "ANTHROPIC_API_KEY": "sk-ant-api03-realkey-0123456789"},\n"permissions": {"allow": ["Bash(ls)"]}}';
const CODEX_BEFORE = [
  '# my Codex setup',
  'model = "o3"',
  'approval_policy = "on-request"',
  '',
  '[mcp_servers.docs]',
  'command = "npx"',
  'args = [',
  '  "-y",',
  '  "[not-a-table]",',
  ']',
  '',
  '[model_providers.gatehouse]',
  'name = "an old entry"',
  'base_url = "http://127.0.0.1:1/v1"',
  '',
  '[model_providers.gatehouse.http_headers]',
  'X-Kept = "yes"',
  '',
].join('\n');
const GEMINI_SETTINGS_BEFORE =
  '{ "ui": { "theme": "GitHub" }, "security": { "auth": { "selectedType": "oauth-personal" }, "folderTrust": { "enabled": true } } }';

describe('gatehouse connect claude-code', () => {
  test('--dry-run shows the change and writes nothing; apply merges the env block; a second apply reuses the token; --undo restores the bytes', () => {
    const box = sandbox();
    box.seed('.claude/settings.json', CLAUDE_BEFORE);

    const dry = box.connect('claude-code', '--dry-run');
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /^\+    "ANTHROPIC_BASE_URL": "http:\/\/127\.0\.0\.1:18790",$/m);
    assert.match(dry.stdout, /\+    "ANTHROPIC_AUTH_TOKEN": "<API token \\"claude-code\\">"/);
    assert.doesNotMatch(dry.stdout, /realkey-0123456789/, 'the key already in the file is shown as a hint');
    assert.equal(box.read('.claude/settings.json'), CLAUDE_BEFORE, 'a dry run writes nothing');
    assert.doesNotMatch(box.tokens(), /claude-code/, 'and makes no token');

    const applied = box.connect('claude-code');
    assert.equal(applied.code, 0, applied.stderr);
    assert.match(
      applied.stderr,
      /pointed to https:\/\/api\.anthropic\.com with a key \(sk-…6789\)/,
      'the real upstream is offered for import',
    );
    const settings = JSON.parse(box.read('.claude/settings.json')!);
    assert.equal(settings.theme, 'dark');
    assert.deepEqual(settings.permissions, { allow: ['Bash(ls)'] });
    assert.equal(settings.env.FOO, '1');
    assert.equal(settings.env.ANTHROPIC_API_KEY, undefined, 'an API key would be sent beside the token');
    assert.equal(settings.env.ANTHROPIC_BASE_URL, GATEWAY);
    assert.match(settings.env.ANTHROPIC_AUTH_TOKEN, /^sk-gh-/);
    assert.equal(settings.env.ANTHROPIC_MODEL, 'sim-chat', 'the first chat model of the list (no channel serves one)');
    assert.equal(settings.env.ANTHROPIC_DEFAULT_HAIKU_MODEL, 'sim-chat');
    assert.doesNotMatch(applied.stdout, new RegExp(settings.env.ANTHROPIC_AUTH_TOKEN), 'the token is never printed');
    assert.match(box.tokens(), /\tclaude-code\t/);

    const again = box.connect('claude-code', '--model', 'my-model');
    assert.equal(again.code, 0, again.stderr);
    const second = JSON.parse(box.read('.claude/settings.json')!);
    assert.equal(second.env.ANTHROPIC_AUTH_TOKEN, settings.env.ANTHROPIC_AUTH_TOKEN, 'the kept token is reused');
    assert.equal(second.env.ANTHROPIC_MODEL, 'my-model');
    assert.equal(box.tokens().match(/\tclaude-code\t/g)?.length, 1, 'one token per tool');

    const undone = box.connect('claude-code', '--undo');
    assert.equal(undone.code, 0, undone.stderr);
    assert.equal(box.read('.claude/settings.json'), CLAUDE_BEFORE, 'the file as it was before the first apply, byte for byte');
    assert.equal(existsSync(path.join(box.home, '.claude', '.gatehouse-connect-backup.json')), false);
    const twice = box.connect('claude-code', '--undo');
    assert.equal(twice.code, 1);
    assert.match(twice.stderr, /Nothing to undo/);
  });

  test('a file that is not JSON is left alone and no token is made', () => {
    const box = sandbox();
    box.seed('.claude/settings.json', '{ "theme": "dark", // a comment\n}');
    const result = box.connect('claude-code');
    assert.equal(result.code, 1);
    assert.match(result.stderr, /~\/\.claude\/settings\.json is not plain JSON/);
    assert.equal(box.read('.claude/settings.json'), '{ "theme": "dark", // a comment\n}');
    assert.doesNotMatch(box.tokens(), /claude-code/);
  });
});

describe('gatehouse connect codex', () => {
  test('sets the two top keys and replaces only the gatehouse table; --undo restores the bytes', () => {
    const box = sandbox();
    box.seed('.codex/config.toml', CODEX_BEFORE);
    const applied = box.connect('codex', '--model', 'gpt-local');
    assert.equal(applied.code, 0, applied.stderr);
    const text = box.read('.codex/config.toml')!;
    const token = /experimental_bearer_token = "(sk-gh-[A-Za-z0-9]+)"/.exec(text)?.[1];
    assert.ok(token, text);
    assert.equal(
      text,
      [
        '# my Codex setup',
        'model = "gpt-local"',
        'approval_policy = "on-request"',
        'model_provider = "gatehouse"',
        '',
        '[mcp_servers.docs]',
        'command = "npx"',
        'args = [',
        '  "-y",',
        '  "[not-a-table]",',
        ']',
        '',
        '[model_providers.gatehouse]',
        'name = "Gatehouse"',
        `base_url = "${GATEWAY}/v1"`,
        'wire_api = "responses"',
        `experimental_bearer_token = "${token}"`,
        '',
        '[model_providers.gatehouse.http_headers]',
        'X-Kept = "yes"',
        '',
      ].join('\n'),
    );
    assert.equal(box.connect('codex', '--undo').code, 0);
    assert.equal(box.read('.codex/config.toml'), CODEX_BEFORE);
  });

  test('with no ~/.codex: creates it, and --undo removes the file and the folder again', () => {
    const box = sandbox();
    assert.equal(box.connect('codex').code, 0);
    assert.match(box.read('.codex/config.toml')!, /^model = "sim-chat"\nmodel_provider = "gatehouse"\n\n\[model_providers\.gatehouse\]\n/);
    assert.equal(box.connect('codex', '--undo').code, 0);
    assert.equal(existsSync(path.join(box.home, '.codex')), false, 'the folder did not exist before');
  });

  test('a file written at 0644 is connected at 0600 (it holds a token) and --undo gives its 0644 back', () => {
    const box = sandbox();
    box.seed('.codex/config.toml', CODEX_BEFORE);
    const file = path.join(box.home, '.codex/config.toml');
    chmodSync(file, 0o644);
    assert.equal(box.connect('codex').code, 0);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(box.connect('codex', '--undo').code, 0);
    assert.equal(statSync(file).mode & 0o777, 0o644);
    assert.equal(box.read('.codex/config.toml'), CODEX_BEFORE);
  });
});

describe("gatehouse connect honours the tools' own folder variables", () => {
  /** `gatehouse connect` with the OS home at `home` (HOME, no GATEHOUSE_HOME_DIR) and the variables `variables`. */
  function underHome(variables: Record<string, string>) {
    const home = dirs.fresh();
    const dataDir = dirs.fresh();
    const connect = (...args: string[]) =>
      runCli(['connect', ...args, '--data-dir', dataDir, '--secrets', 'file', '--url', GATEWAY], {
        GATEHOUSE_HOME_DIR: '',
        HOME: home,
        CLAUDE_CONFIG_DIR: '',
        CODEX_HOME: '',
        GEMINI_CLI_HOME: '',
        ...variables,
      });
    return { home, connect };
  }

  test('CODEX_HOME, CLAUDE_CONFIG_DIR (the folder itself) and GEMINI_CLI_HOME (a home holding .gemini) are where each tool reads, so connect writes there', () => {
    const elsewhere = dirs.fresh();
    const box = underHome({
      CODEX_HOME: path.join(elsewhere, 'codex'),
      CLAUDE_CONFIG_DIR: path.join(elsewhere, 'claude'),
      GEMINI_CLI_HOME: path.join(elsewhere, 'gemini-home'),
    });
    const codex = box.connect('codex');
    assert.equal(codex.code, 0, codex.stderr);
    assert.match(readFileSync(path.join(elsewhere, 'codex/config.toml'), 'utf8'), /^model_provider = "gatehouse"$/m);
    assert.ok(codex.stdout.includes(path.join(elsewhere, 'codex/config.toml')), 'the change names the file it wrote');
    assert.equal(box.connect('claude-code').code, 0);
    assert.match(readFileSync(path.join(elsewhere, 'claude/settings.json'), 'utf8'), /ANTHROPIC_BASE_URL/);
    assert.equal(box.connect('gemini-cli').code, 0);
    assert.match(readFileSync(path.join(elsewhere, 'gemini-home/.gemini/.env'), 'utf8'), /^GOOGLE_GEMINI_BASE_URL=/m);
    for (const folder of ['.codex', '.claude', '.gemini'])
      assert.equal(existsSync(path.join(box.home, folder)), false, `nothing in ~/${folder}`);
    assert.equal(box.connect('codex', '--undo').code, 0);
    assert.equal(existsSync(path.join(elsewhere, 'codex/config.toml')), false, 'undo works in the same folder');
  });

  test('a file connect cannot merge is named at the path the variable leads to, not in ~/.claude or ~/.gemini', () => {
    const elsewhere = dirs.fresh();
    const claudeDir = path.join(elsewhere, 'claude');
    const geminiDir = path.join(elsewhere, 'gemini-home', '.gemini');
    mkdirSync(claudeDir, { recursive: true });
    mkdirSync(geminiDir, { recursive: true });
    writeFileSync(path.join(claudeDir, 'settings.json'), '{"env": ');
    writeFileSync(path.join(geminiDir, 'settings.json'), '{"model": "a name, not an object"}');
    const box = underHome({ CLAUDE_CONFIG_DIR: claudeDir, GEMINI_CLI_HOME: path.join(elsewhere, 'gemini-home') });
    const claude = box.connect('claude-code');
    assert.notEqual(claude.code, 0);
    assert.ok(claude.stderr.includes(`${path.join(claudeDir, 'settings.json')} is not plain JSON`), claude.stderr);
    const gemini = box.connect('gemini-cli');
    assert.notEqual(gemini.code, 0);
    assert.ok(gemini.stderr.includes(`${path.join(geminiDir, 'settings.json')}: "model" is not an object`), gemini.stderr);
  });

  test('without the variables the home folder is used; GATEHOUSE_HOME_DIR wins over them (a sandbox stays one)', () => {
    const plain = underHome({});
    assert.equal(plain.connect('codex').code, 0);
    assert.ok(existsSync(path.join(plain.home, '.codex/config.toml')));
    const sandboxHome = dirs.fresh();
    const elsewhere = dirs.fresh();
    const boxed = underHome({ GATEHOUSE_HOME_DIR: sandboxHome, CODEX_HOME: elsewhere });
    assert.equal(boxed.connect('codex').code, 0);
    assert.ok(existsSync(path.join(sandboxHome, '.codex/config.toml')));
    assert.equal(existsSync(path.join(elsewhere, 'config.toml')), false);
  });
});

describe('gatehouse connect gemini-cli', () => {
  test('merges settings.json, creates .env; --undo restores the settings and removes the .env that did not exist', () => {
    const box = sandbox();
    box.seed('.gemini/settings.json', GEMINI_SETTINGS_BEFORE);
    const applied = box.connect('gemini-cli');
    assert.equal(applied.code, 0, applied.stderr);
    const settings = JSON.parse(box.read('.gemini/settings.json')!);
    assert.deepEqual(settings.ui, { theme: 'GitHub' });
    assert.deepEqual(settings.security, { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: true } });
    assert.deepEqual(settings.model, { name: 'sim-chat' });
    assert.deepEqual(settings.advanced, { ignoreLocalEnv: true }, "a project's own .env would hide ~/.gemini/.env");
    assert.match(box.read('.gemini/.env')!, new RegExp(`^GOOGLE_GEMINI_BASE_URL=${GATEWAY}\\nGEMINI_API_KEY=sk-gh-[A-Za-z0-9]+\\n$`));
    assert.equal(box.connect('gemini-cli', '--undo').code, 0);
    assert.equal(box.read('.gemini/settings.json'), GEMINI_SETTINGS_BEFORE);
    assert.equal(box.read('.gemini/.env'), null, 'the .env did not exist before');
    assert.equal(existsSync(path.join(box.home, '.gemini')), true, 'the folder did');
  });

  test('an existing .env keeps its other lines; its old key is offered for import, shown as a hint only', () => {
    const box = sandbox();
    const env = '# mine\nOTHER=1\nexport GEMINI_API_KEY="AIzaSyOldKey0123456789"\n';
    box.seed('.gemini/.env', env);
    const applied = box.connect('gemini-cli');
    assert.equal(applied.code, 0, applied.stderr);
    assert.doesNotMatch(applied.stdout + applied.stderr, /AIzaSyOldKey0123456789/);
    assert.match(applied.stderr, /generativelanguage\.googleapis\.com with a key/);
    assert.match(box.read('.gemini/.env')!, /^# mine\nOTHER=1\nGEMINI_API_KEY=sk-gh-[A-Za-z0-9]+\nGOOGLE_GEMINI_BASE_URL=/);
    assert.equal(box.connect('gemini-cli', '--undo').code, 0);
    assert.equal(box.read('.gemini/.env'), env);
  });

  test("--trust marks the project folder trusted beside the user's own entries (headless gemini -p needs it); --undo restores the file; other tools refuse it", () => {
    const box = sandbox();
    const trustedBefore = '{"/home/me/old": "TRUST_PARENT"}';
    box.seed('.gemini/trustedFolders.json', trustedBefore);
    const project = path.join(box.home, 'projects', 'app');
    const plain = box.connect('gemini-cli', '--dry-run');
    assert.doesNotMatch(plain.stdout, /trustedFolders/, 'without --trust the trusted folders are not touched');

    const applied = box.connect('gemini-cli', '--trust', `${project}/`);
    assert.equal(applied.code, 0, applied.stderr);
    assert.deepEqual(JSON.parse(box.read('.gemini/trustedFolders.json')!), { '/home/me/old': 'TRUST_PARENT', [project]: 'TRUST_FOLDER' });
    assert.match(applied.stdout, /^\+\+\+ ~\/\.gemini\/trustedFolders\.json$/m);
    assert.equal(box.connect('gemini-cli', '--undo').code, 0);
    assert.equal(box.read('.gemini/trustedFolders.json'), trustedBefore);

    // Connected without a folder, the trusted folders are no part of the backup: those Gemini CLI saves later survive undo.
    assert.equal(box.connect('gemini-cli').code, 0);
    box.seed('.gemini/trustedFolders.json', '{"/home/me/later": "TRUST_FOLDER"}');
    const undone = box.connect('gemini-cli', '--undo');
    assert.match(undone.stdout, /^restored ~\/\.gemini\/settings\.json, ~\/\.gemini\/\.env as they were/m);
    assert.equal(box.read('.gemini/trustedFolders.json'), '{"/home/me/later": "TRUST_FOLDER"}');

    const refused = box.connect('claude-code', '--trust', project);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /claude-code has no trusted folders to set/);
    assert.equal(box.read('.claude/settings.json'), null, 'nothing was written');
  });
});

describe('gatehouse connect without --url', () => {
  test('points the tool at the port the running serve of its data dir took (here a free one, not the default); once serve stopped, at the default again', async () => {
    const home = dirs.fresh();
    const dataDir = dirs.fresh();
    // No saved settings nor GATEHOUSE_PORT: without the running serve's note, connect would name the default port.
    const env = { GATEHOUSE_HOME_DIR: home, GATEHOUSE_PORT: '', GATEHOUSE_HOST: '', GATEHOUSE_SETTINGS_FILE: 'off' };
    const dryRun = () => runCliAsync(['connect', 'claude-code', '--dry-run', '--data-dir', dataDir, '--secrets', 'none'], env);
    const baseUrlOf = (stdout: string) => /^\+ {4}"ANTHROPIC_BASE_URL": "([^"]+)",$/m.exec(stdout)?.[1];
    const server = await serveCli(privateServeArgs(dataDir), env);
    try {
      assert.notEqual(new URL(server.url).port, '8790', 'serve took a free port');
      const running = await dryRun();
      assert.equal(running.code, 0, running.stderr);
      assert.equal(baseUrlOf(running.stdout), server.url);
    } finally {
      await server.stop();
    }
    assert.equal(existsSync(path.join(dataDir, 'listening.json')), false, 'serve removed its note when it stopped');
    const stopped = await dryRun();
    assert.equal(stopped.code, 0, stopped.stderr);
    assert.equal(baseUrlOf(stopped.stdout), 'http://127.0.0.1:8790');
  });
});
