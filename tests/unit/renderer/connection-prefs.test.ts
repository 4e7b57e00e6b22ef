// Unit tests of how the console finds its gateway and keeps the admin token, and of the theme/language preferences.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ADMIN_TOKEN_KEY, connectionFromDesktop, resolveBrowserConnection } from '../../../renderer/src/stores/connection.ts';
import { createPrefsStore, initialLanguage } from '../../../renderer/src/stores/prefs.ts';
import { pageOfHash } from '../../../renderer/src/stores/navigation.ts';
import { memoryStorage } from '../../../renderer/src/stores/storage.ts';

describe('connection', () => {
  test('a token in the address moves to the tab storage and out of the address', () => {
    const storage = memoryStorage();
    const handoff = resolveBrowserConnection('http://127.0.0.1:8790/console/?admin_token=abc&x=1#/assets', storage);
    assert.equal(handoff.kind, 'ready');
    if (handoff.kind !== 'ready') return;
    assert.equal(handoff.cleanUrl, 'http://127.0.0.1:8790/console/?x=1#/assets');
    assert.equal(storage.getItem(ADMIN_TOKEN_KEY), 'abc');
    assert.deepEqual(handoff.connection, {
      host: 'browser',
      apiBase: '',
      socketBase: 'http://127.0.0.1:8790',
      gatewayUrl: 'http://127.0.0.1:8790',
      adminToken: 'abc',
    });
    const again = resolveBrowserConnection('http://127.0.0.1:8790/console/', storage);
    assert.equal(again.kind === 'ready' && again.connection.adminToken, 'abc', 'a reload keeps working');
  });

  test('without a token anywhere the console asks for the printed URL', () => {
    assert.deepEqual(resolveBrowserConnection('http://127.0.0.1:8790/console/', memoryStorage()), { kind: 'missing-token' });
  });

  test('the desktop bridge hands over the gateway URL and token', () => {
    const connection = connectionFromDesktop(
      { gatewayUrl: 'http://127.0.0.1:8790', adminToken: 't', paused: false, problem: null },
      'http://localhost:5173',
    );
    assert.deepEqual(connection, {
      host: 'electron',
      apiBase: '',
      socketBase: 'http://localhost:5173',
      gatewayUrl: 'http://127.0.0.1:8790',
      adminToken: 't',
    });
  });

  test('the address hash names the page, unknown ones fall back to the overview', () => {
    assert.equal(pageOfHash('#/tokens'), 'tokens');
    assert.equal(pageOfHash('#/nope'), 'overview');
    assert.equal(pageOfHash(''), 'overview');
  });
});

describe('preferences', () => {
  test('theme and language persist across a restart of the console', () => {
    const storage = memoryStorage();
    const prefs = createPrefsStore(storage, 'en-US');
    assert.deepEqual([prefs.getState().theme, prefs.getState().language], ['system', 'en']);
    prefs.getState().setTheme('dark');
    prefs.getState().setLanguage('zh');
    const later = createPrefsStore(storage, 'en-US');
    assert.deepEqual([later.getState().theme, later.getState().language], ['dark', 'zh']);
  });

  test('a Chinese browser starts in Chinese; broken stored values fall back', () => {
    assert.equal(initialLanguage(undefined, 'zh-CN'), 'zh');
    assert.equal(initialLanguage('fr', 'en-GB'), 'en');
    const storage = memoryStorage();
    storage.setItem('gatehouse.prefs', '{not json');
    assert.equal(createPrefsStore(storage).getState().theme, 'system');
  });
});
