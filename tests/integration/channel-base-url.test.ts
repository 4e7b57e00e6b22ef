// Integration tests: a channel's base URL may be plain http only to this machine's loopback literals, through the admin API and `gatehouse channel add`; the refusal names the field and the rule.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { request, startGateway, tempDirs, type TestGateway } from '../helpers/gateway.ts';

/** Plain-http base URLs that do not certainly stay on this machine: each needs https. */
const REFUSED = [
  'http://ollama.localhost:11434/v1',
  'http://localhost.:11434/v1',
  'http://169.254.169.254/v1',
  'http://[fe80::1]:8080/v1',
  'http://[::ffff:169.254.169.254]/v1',
  'http://10.0.0.5:8000/v1',
  'http://192.168.1.20/v1',
  'http://[fd00::5]/v1',
  'http://api.example.com/v1',
];

/** Loopback literals (plain http allowed) and https to anything. */
const ACCEPTED = [
  'http://localhost:11434/v1',
  'http://127.0.0.1:11434/v1',
  'http://127.9.8.7/v1',
  'http://[::1]:8080/v1',
  'http://[::ffff:127.0.0.1]:8080/v1',
  'https://ollama.localhost/v1',
  'https://169.254.1.1/v1',
  'https://api.example.com/v1',
];

const RULE = /base[_-]url must use https \(plain http only to this machine: localhost, 127\.x\.x\.x or \[::1\]/;

describe('the plain-http rule for channel base URLs', () => {
  const dirs = tempDirs();
  let gw: TestGateway;
  const add = (name: string, baseUrl: string) =>
    request(`${gw.url}/admin/api/channels`, 'POST', { token: gw.gateway.adminToken, body: { name, kind: 'openai', base_url: baseUrl } });
  before(async () => {
    gw = await startGateway();
  });
  after(async () => {
    await gw.stop();
    dirs.removeAll();
  });

  test('the admin API refuses plain http to anything but a loopback literal, naming base_url and the rule', async () => {
    for (const [index, baseUrl] of REFUSED.entries()) {
      const refused = await add(`refused-${index}`, baseUrl);
      assert.equal(refused.status, 400, baseUrl);
      assert.equal(refused.body.error.param, 'base_url', baseUrl);
      assert.match(refused.body.error.message, RULE, baseUrl);
    }
    const ids: string[] = [];
    for (const [index, baseUrl] of ACCEPTED.entries()) {
      const added = await add(`accepted-${index}`, baseUrl);
      assert.equal(added.status, 200, `${baseUrl}: ${JSON.stringify(added.body)}`);
      ids.push(added.body.id);
    }
    const names = ((await request(`${gw.url}/admin/api/channels`, 'GET', { token: gw.gateway.adminToken })).body as { name: string }[]).map(
      (channel) => channel.name,
    );
    assert.deepEqual(
      names.filter((name) => name.startsWith('refused')),
      [],
      'nothing refused was stored',
    );
    // A change to an existing channel is held to the same rule.
    const changed = await request(`${gw.url}/admin/api/channels/${ids[0]}`, 'PUT', {
      token: gw.gateway.adminToken,
      body: { base_url: 'http://ollama.localhost:11434/v1' },
    });
    assert.equal(changed.status, 400);
    assert.match(changed.body.error.message, RULE);
  });

  test('gatehouse channel add refuses the same URLs with a usage error naming --base-url', () => {
    const dataDir = dirs.fresh();
    const cli = (name: string, baseUrl: string) =>
      runCli(['channel', 'add', '--name', name, '--kind', 'openai', '--base-url', baseUrl, '--data-dir', dataDir, '--secrets', 'none']);
    for (const baseUrl of ['http://ollama.localhost:11434/v1', 'http://169.254.169.254/v1']) {
      const refused = cli('nope', baseUrl);
      assert.equal(refused.code, 2, `${baseUrl}: ${refused.stderr}`);
      assert.match(refused.stderr, RULE, baseUrl);
    }
    const mapped = cli('mapped', 'http://[::ffff:127.0.0.1]:11434/v1');
    assert.equal(mapped.code, 0, mapped.stderr);
    assert.match(runCli(['channel', 'list', '--data-dir', dataDir]).stdout, /\tmapped\topenai\thttp:\/\/\[::ffff:7f00:1\]:11434\/v1\t/m);
    assert.doesNotMatch(runCli(['channel', 'list', '--data-dir', dataDir]).stdout, /nope/);
  });
});
