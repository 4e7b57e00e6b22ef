// Unit tests of portrait input validation edge cases not reachable through one HTTP call.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isHttpsUrl, parseAssetCreate, parseGroupCreate, parseGroupUpdate } from '../../../electron/gateway/services/portrait-input.ts';

test('isHttpsUrl accepts https URLs with hosts and rejects everything else', () => {
  for (const ok of ['https://a.example/x.png', 'https://127.0.0.1:8443/a', 'https://a.example/p?q=1#f', 'HTTPS://A.EXAMPLE/x']) {
    assert.equal(isHttpsUrl(ok), true, ok);
  }
  for (const bad of [
    'http://a.example',
    'https://',
    'https:///x',
    'https://a b.example/',
    ' https://a.example',
    'https://u@a.example/',
    'file:///etc/passwd',
    '//a.example/x',
  ]) {
    assert.equal(isHttpsUrl(bad), false, bad);
  }
});

test('group names are trimmed; a blank group_type falls back to AIGC', () => {
  assert.deepEqual(parseGroupCreate({ name: '  Faces ', group_type: ' ' }), { name: 'Faces', description: '', groupType: 'AIGC' });
  assert.deepEqual(parseGroupUpdate({ description: '' }), { description: '' });
});

test('asset create keeps the URL exactly as given and the optional name', () => {
  const input = parseAssetCreate({ group_id: 'grp_1', url: 'https://a.example/A.png?sig=X', asset_type: 'Video', name: 'n' });
  assert.deepEqual(input, { groupId: 'grp_1', url: 'https://a.example/A.png?sig=X', assetType: 'Video', name: 'n' });
});
