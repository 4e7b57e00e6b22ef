// Unit tests of the settings store: the draft starts from saved values, is checked as typed, saves whole, and reports what applied or waits.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { SettingsView } from '../../../shared/settings.ts';
import { ApiError } from '../../../renderer/src/api/http.ts';
import { createSettingsStore, settingsOf } from '../../../renderer/src/stores/settings.ts';
import { fakeAdmin } from '../../helpers/fake-admin.ts';

const view = (extra: Partial<SettingsView> = {}): SettingsView => ({
  editable: true,
  file: '/home/me/.config/Gatehouse/settings.json',
  saved: { port: 9000 },
  defaults: {
    host: '127.0.0.1',
    port: 8790,
    tlsPort: 8791,
    corsOrigins: [],
    refreshIntervalMs: 300_000,
    dataDir: '/home/me/.config/Gatehouse',
  },
  effective: {
    host: '127.0.0.1',
    port: 8790,
    tlsPort: 8791,
    corsOrigins: [],
    refreshIntervalMs: 300_000,
    dataDir: '/home/me/.config/Gatehouse',
  },
  pinned: {},
  restartNeeded: ['port'],
  ...extra,
});

describe('settings store', () => {
  test('the draft shows saved values over this run’s, minutes for the interval, and an empty data folder for the default', async () => {
    const store = createSettingsStore(fakeAdmin({ getSettings: () => view() }).call);
    await store.getState().load();
    assert.deepEqual(store.getState().draft, {
      host: '127.0.0.1',
      port: '9000',
      tlsEnabled: true,
      tlsPort: '8791',
      corsOrigins: '',
      refreshMinutes: '5',
      dataDir: '',
    });
  });

  test('problems show as the user types and block the save; nothing is sent', async () => {
    let saves = 0;
    const store = createSettingsStore(fakeAdmin({ getSettings: () => view(), saveSettings: () => (saves++, view()) }).call);
    await store.getState().load();
    store.getState().edit({ port: '80a', corsOrigins: 'http://ok.example\nnot an origin', refreshMinutes: '0' });
    const { problems } = store.getState();
    assert.match(problems.port!, /whole number/);
    assert.match(problems.corsOrigins!, /"not an origin" is not an origin/);
    assert.match(problems.refreshIntervalMs!, /1000/);
    assert.equal(await store.getState().save(), false);
    assert.equal(saves, 0);
  });

  test('a save sends what the file holds and what the user changed, then says what applied at once and what waits for a restart', async () => {
    let sent: unknown;
    const after = view({
      saved: { port: 9000, corsOrigins: ['http://localhost:5173'], refreshIntervalMs: 90_000, tlsPort: null },
      effective: { ...view().effective, corsOrigins: ['http://localhost:5173'], refreshIntervalMs: 90_000 },
      restartNeeded: ['port', 'tlsPort'],
    });
    const store = createSettingsStore(fakeAdmin({ getSettings: () => view(), saveSettings: (input) => ((sent = input.body), after) }).call);
    await store.getState().load();
    store.getState().edit({ corsOrigins: 'http://localhost:5173', refreshMinutes: '1.5', tlsEnabled: false });
    assert.equal(await store.getState().save(), true);
    assert.deepEqual(sent, {
      port: 9000,
      tlsPort: null,
      corsOrigins: ['http://localhost:5173'],
      refreshIntervalMs: 90_000,
    });
    assert.deepEqual(store.getState().savedNote, { live: ['corsOrigins', 'refreshIntervalMs'], restartNeeded: ['port', 'tlsPort'] });
  });

  test('the draft starts from the next start’s defaults, not this run’s flags, and a save leaves pinned and untouched settings out', async () => {
    let sent: unknown;
    const flagged = view({
      saved: {},
      effective: { ...view().effective, port: 0, tlsPort: null },
      pinned: { port: '--port', tlsPort: '--tls-port' },
      restartNeeded: [],
    });
    const store = createSettingsStore(
      fakeAdmin({ getSettings: () => flagged, saveSettings: (input) => ((sent = input.body), flagged) }).call,
    );
    await store.getState().load();
    assert.equal(store.getState().draft!.port, '8790', 'the port the next plain start takes, not the flag’s 0');
    assert.equal(store.getState().draft!.tlsEnabled, true);
    store.getState().edit({ refreshMinutes: '2' });
    assert.equal(await store.getState().save(), true);
    assert.deepEqual(sent, { refreshIntervalMs: 120_000 });
  });

  test('a refusal from the gateway lands on its field', async () => {
    const store = createSettingsStore(
      fakeAdmin({
        getSettings: () => view(),
        saveSettings: () => {
          throw new ApiError('Data folder must be an absolute path', 400, 'dataDir');
        },
      }).call,
    );
    await store.getState().load();
    assert.equal(await store.getState().save(), false);
    assert.equal(store.getState().problems.dataDir, 'Data folder must be an absolute path');
  });

  test('restart goes through the desktop bridge and reports its failure in words', async () => {
    const store = createSettingsStore(fakeAdmin({ getSettings: () => view() }).call);
    const connection = { gatewayUrl: 'http://127.0.0.1:9000', adminToken: 'a', paused: false, problem: null };
    const bridge = { restartServer: async () => connection } as any;
    assert.deepEqual(await store.getState().restart(bridge), connection);
    const failing = {
      restartServer: async () => {
        throw new Error('could not start with the saved settings');
      },
    } as any;
    assert.equal(await store.getState().restart(failing), null);
    assert.match(store.getState().error!, /could not start/);
  });

  test('text that is not a number goes to the check as text, so it is named rather than silently dropped', () => {
    const value = settingsOf({
      host: 'h',
      port: ' 12 ',
      tlsEnabled: true,
      tlsPort: 'x',
      corsOrigins: 'a, b',
      refreshMinutes: 'soon',
      dataDir: '  ',
    });
    assert.deepEqual(value, { host: 'h', port: 12, tlsPort: 'x', corsOrigins: ['a', 'b'], refreshIntervalMs: 'soon', dataDir: null });
  });
});
