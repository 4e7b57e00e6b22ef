// The small file edits of Connect: a TOML table replaced without touching lines that only look like tables, `.env` lines set in place, the line diff.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { editDotenv, readDotenv } from '../../../electron/gateway/services/tool-config/dotenv-edit.ts';
import { lineDiff } from '../../../electron/gateway/services/tool-config/line-diff.ts';
import { editToml, readTomlString, tomlString } from '../../../electron/gateway/services/tool-config/toml-edit.ts';

const edit = {
  topLevel: { model: '"m"', model_provider: '"gatehouse"' },
  table: { name: 'model_providers.gatehouse', body: ['base_url = "u"'] },
};

test('a file of tables only gets the top keys before its first table, and the new table at its end', () => {
  const text = '[profiles.x]\nmodel = "kept"\n';
  assert.equal(
    editToml(text, edit),
    'model = "m"\nmodel_provider = "gatehouse"\n\n[profiles.x]\nmodel = "kept"\n\n[model_providers.gatehouse]\nbase_url = "u"\n',
  );
});

test('lines inside a multi-line string or array that look like headers or keys are left alone', () => {
  const text = ['notes = """', '[model_providers.gatehouse]', 'model = "not a key"', '"""', 'model = "old"', ''].join('\n');
  const out = editToml(text, edit);
  assert.ok(
    out.startsWith(
      ['notes = """', '[model_providers.gatehouse]', 'model = "not a key"', '"""', 'model = "m"', 'model_provider = "gatehouse"'].join(
        '\n',
      ),
    ),
    out,
  );
  assert.ok(out.endsWith('\n\n[model_providers.gatehouse]\nbase_url = "u"\n'), out);
});

test('a quoted table name is the same table; CRLF files stay CRLF; strings are escaped', () => {
  const text = 'model = "a"\r\n\r\n[model_providers."gatehouse"]\r\nname = "old"\r\n';
  assert.equal(
    editToml(text, edit),
    'model = "m"\r\nmodel_provider = "gatehouse"\r\n\r\n[model_providers.gatehouse]\r\nbase_url = "u"\r\n',
  );
  assert.equal(tomlString('a"b\\c\n'), '"a\\"b\\\\c\\u000a"');
  assert.equal(readTomlString('[t]\nk = "x\\"y" # c\n', 't', 'k'), 'x"y');
});

test('.env: a set variable replaces its first line (export and quotes read), duplicates go, others stay', () => {
  const text = '# c\nexport A="old value"\nB=1\nA=dup\n';
  assert.deepEqual(readDotenv(text), { A: 'old value', B: '1' });
  assert.equal(editDotenv(text, { A: 'new', C: 'has space' }), '# c\nA=new\nB=1\nC="has space"\n');
});

test('the line diff keeps common lines and marks what was removed and added', () => {
  assert.deepEqual(lineDiff('a\nb\nc\n', 'a\nx\nc\n'), [
    { op: ' ', text: 'a' },
    { op: '-', text: 'b' },
    { op: '+', text: 'x' },
    { op: ' ', text: 'c' },
  ]);
});
