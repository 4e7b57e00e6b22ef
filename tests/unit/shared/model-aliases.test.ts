// Unit tests of the model alias rules: the saved map's shape and limits, the flag's, and that a new alias must stand for a listed model.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { resolveServeOptions, UsageError } from '../../../electron/gateway/options/serve-options.ts';
import { newAliasTargetProblem } from '../../../electron/gateway/services/alias-targets.ts';
import { validateSettings } from '../../../shared/settings.ts';

const problemOf = (modelAliases: unknown) => {
  const checked = validateSettings({ modelAliases });
  return checked.ok ? null : checked.problems;
};

test('a saved alias map takes names and targets of 1 to 256 characters without = or ,', () => {
  assert.deepEqual(validateSettings({ modelAliases: { 'gpt-4o': 'sim-chat', ['x'.repeat(256)]: 'sim-embed' } }), {
    ok: true,
    value: { modelAliases: { 'gpt-4o': 'sim-chat', ['x'.repeat(256)]: 'sim-embed' } },
  });
  assert.deepEqual(validateSettings({ modelAliases: {} }), { ok: true, value: { modelAliases: {} } });
  for (const [bad, pattern] of [
    [{ '': 'sim-chat' }, /alias name must be 1 to 256 characters/],
    [{ ['x'.repeat(257)]: 'sim-chat' }, /alias name must be 1 to 256 characters/],
    [{ 'a=b': 'sim-chat' }, /alias name cannot contain "=" or ","/],
    [{ gpt: 'sim-chat,sim-embed' }, /alias target cannot contain "=" or ","/],
    [{ gpt: '' }, /alias target must be 1 to 256 characters/],
    [{ gpt: 42 }, /target of alias "gpt" must be a model id/],
    [{ ' gpt': 'sim-chat' }, /cannot start or end with a space/],
    [{ 'sim-chat': 'sim-chat' }, /cannot stand for itself/],
    [['gpt=sim-chat'], /must be an object/],
    ['gpt=sim-chat', /must be an object/],
  ] as const) {
    const problems = problemOf(bad);
    assert.ok(problems, `${JSON.stringify(bad)} is refused`);
    assert.equal(problems[0]!.key, 'modelAliases', 'the problem names the field');
    assert.match(problems[0]!.message, pattern);
  }
});

test('at most 200 aliases are kept, in the settings file and by the flag', () => {
  const map = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, index) => [`alias-${index}`, 'sim-chat']));
  assert.ok(validateSettings({ modelAliases: map(200) }).ok);
  assert.match(problemOf(map(201))![0]!.message, /At most 200 model aliases; got 201/);
  const flag = Object.entries(map(201))
    .map(([name, target]) => `${name}=${target}`)
    .join(',');
  assert.throws(
    () => resolveServeOptions(['--model-aliases', flag, '--settings-file', 'off'], {}, '/tmp/gatehouse-none'),
    (error: unknown) => error instanceof UsageError && /--model-aliases: At most 200 model aliases/.test(error.message),
  );
  assert.throws(
    () => resolveServeOptions(['--model-aliases', 'a=b=c', '--settings-file', 'off'], {}, '/tmp/gatehouse-none'),
    (error: unknown) => error instanceof UsageError && /takes name=model pairs/.test(error.message),
  );
});

test('saved aliases are used when no flag or variable gives some, and --model-aliases or GATEHOUSE_MODEL_ALIASES pins them', () => {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-aliases-'));
  try {
    const file = path.join(folder, 'settings.json');
    writeFileSync(file, JSON.stringify({ modelAliases: { 'team-chat': 'sim-chat' } }));
    const resolve = (args: string[], env: NodeJS.ProcessEnv = {}) => resolveServeOptions([...args, '--settings-file', file], env, folder);
    assert.deepEqual(resolve([]).modelAliases, { 'team-chat': 'sim-chat' });
    assert.equal(resolve([]).pinned.modelAliases, undefined);
    assert.deepEqual(resolve(['--model-aliases', 'gpt-4o=sim-chat']).modelAliases, { 'gpt-4o': 'sim-chat' }, 'the flag wins');
    assert.equal(resolve(['--model-aliases', 'gpt-4o=sim-chat']).pinned.modelAliases, '--model-aliases');
    assert.equal(resolve([], { GATEHOUSE_MODEL_ALIASES: 'x=sim-chat' }).pinned.modelAliases, 'GATEHOUSE_MODEL_ALIASES');
    writeFileSync(file, JSON.stringify({ modelAliases: { 'a,b': 'sim-chat' } }));
    assert.throws(
      () => resolve([]),
      (error: unknown) => error instanceof UsageError && /modelAliases: An alias name cannot contain/.test(error.message),
    );
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

test('a new or retargeted alias must stand for a listed model; one kept as it was is not checked again', () => {
  const listed = ['sim-chat', 'sim-embed', 'relayed-model'];
  assert.equal(newAliasTargetProblem({ a: 'sim-chat', b: 'relayed-model' }, {}, listed), null);
  assert.match(newAliasTargetProblem({ a: 'no-such-model' }, {}, listed)!, /Alias "a" stands for "no-such-model", which is not a model/);
  assert.match(newAliasTargetProblem({ a: 'gone' }, { a: 'sim-chat' }, listed)!, /"gone"/, 'a retarget is checked');
  assert.equal(newAliasTargetProblem({ a: 'gone', b: 'sim-embed' }, { a: 'gone' }, listed), null, 'a kept alias passes');
});
