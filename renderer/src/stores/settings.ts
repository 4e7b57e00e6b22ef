// The Settings page's server form: loads saved and effective settings, checks the draft as the user types, saves, and restarts the server (desktop or `gatehouse serve`).
import { create } from 'zustand';
import type { DesktopConnection, GatehouseBridge } from '../../../shared/ipc.ts';
import {
  SETTING_KEYS,
  validateSettings,
  type ServerSettings,
  type SettingKey,
  type SecretStoreMode,
  type SettingsView,
  type UnroutedPolicy,
} from '../../../shared/settings.ts';
import type { AdminCall } from '../api/admin-client.ts';
import { ApiError } from '../api/http.ts';
import { loadShowing, loadsInOrder } from './loads-in-order.ts';
import { messageOf } from './storage.ts';

/** The form as typed: text fields stay text until saved. */
export interface SettingsDraft {
  host: string;
  port: string;
  tlsEnabled: boolean;
  tlsPort: string;
  /** One origin per line. */
  corsOrigins: string;
  /** Minutes, decimals allowed. */
  refreshMinutes: string;
  /** Empty: the default folder. */
  dataDir: string;
  /** What a model no channel serves gets; absent when the view has no such setting. */
  unrouted?: UnroutedPolicy;
  /** Where secrets are kept; absent when the view has no such setting. */
  secrets?: SecretStoreMode;
}

export interface SettingsState {
  view: SettingsView | null;
  draft: SettingsDraft | null;
  /** Problems of the draft, by field, as the gateway would report them. */
  problems: Partial<Record<SettingKey, string>>;
  loading: boolean;
  saving: boolean;
  restarting: boolean;
  error: string | null;
  /** Set after a save: what applied at once and what waits for a restart. */
  savedNote: { live: SettingKey[]; restartNeeded: SettingKey[] } | null;
  load(): Promise<void>;
  edit(change: Partial<SettingsDraft>): void;
  save(): Promise<boolean>;
  /** Desktop only: restarts the server with the saved settings. */
  restart(bridge: GatehouseBridge): Promise<DesktopConnection | null>;
  /** True when a restart under `gatehouse serve` did not come back on this address (its host or port changed). */
  restartLost: boolean;
  /** Under `gatehouse serve`: asks the server to restart with the saved settings and waits until a new run answers here. */
  restartServe(startedAt: number): Promise<boolean>;
  /** The one-click way out of a store that keeps nothing: saves the secret store as `file` (a restart applies it); true when saved. */
  keepSecretsInFile(): Promise<boolean>;
}

const DECIMAL = /^\d+(\.\d+)?$/;
const WHOLE = /^\d+$/;

/** The draft a view starts from: saved values where there are any, else what the next start takes (never this run's flags). */
export function draftOf(view: SettingsView): SettingsDraft {
  const value = <K extends SettingKey>(key: K): ServerSettings[K] =>
    (view.saved[key] !== undefined ? view.saved[key] : view.defaults[key]) as ServerSettings[K];
  const tlsPort = value('tlsPort');
  return {
    host: value('host'),
    port: String(value('port')),
    tlsEnabled: tlsPort !== null,
    tlsPort: tlsPort === null ? '8791' : String(tlsPort),
    corsOrigins: value('corsOrigins').join('\n'),
    refreshMinutes: String(+(value('refreshIntervalMs') / 60_000).toFixed(4)),
    dataDir: view.saved.dataDir ?? '',
    ...(view.defaults.unrouted !== undefined && { unrouted: value('unrouted')! }),
    ...(view.defaults.secrets !== undefined && { secrets: value('secrets')! }),
  };
}

/**
 * What a save sends: what the file holds, plus each setting the user changed in the form. A setting left as it was is
 * not written (so a default stays a default), and one pinned by a flag is never sent.
 */
export function changesOf(view: SettingsView, draft: SettingsDraft): Partial<Record<SettingKey, unknown>> {
  const before = settingsOf(draftOf(view));
  const after = settingsOf(draft);
  const body: Partial<Record<SettingKey, unknown>> = { ...view.saved };
  for (const key of SETTING_KEYS) {
    if (view.pinned[key]) continue;
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) body[key] = after[key];
  }
  return body;
}

/** The settings a draft stands for; text that is not a number goes through as is, so the shared check names it. */
export function settingsOf(draft: SettingsDraft): Partial<Record<SettingKey, unknown>> {
  const number = (text: string, pattern: RegExp) => (pattern.test(text.trim()) ? Number(text.trim()) : text);
  const minutes = draft.refreshMinutes.trim();
  return {
    host: draft.host,
    port: number(draft.port, WHOLE),
    tlsPort: draft.tlsEnabled ? number(draft.tlsPort, WHOLE) : null,
    corsOrigins: draft.corsOrigins
      .split(/[\n,]/)
      .map((item) => item.trim())
      .filter((item) => item !== ''),
    refreshIntervalMs: DECIMAL.test(minutes) ? Math.round(Number(minutes) * 60_000) : minutes,
    dataDir: draft.dataDir.trim() === '' ? null : draft.dataDir,
    ...(draft.unrouted !== undefined && { unrouted: draft.unrouted }),
    ...(draft.secrets !== undefined && { secrets: draft.secrets }),
  };
}

function problemsOf(draft: SettingsDraft): Partial<Record<SettingKey, string>> {
  const checked = validateSettings(settingsOf(draft));
  const problems: Partial<Record<SettingKey, string>> = {};
  if (!checked.ok) for (const problem of checked.problems) problems[problem.key] ??= problem.message;
  return problems;
}

/** How long and how often a console under `gatehouse serve` waits for the restarted server. */
const RESTART_WAIT = { attempts: 60, everyMs: 500 };

export function createSettingsStore(call: AdminCall, wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))) {
  // A view read before a save must not put the old settings, and a draft of them, back on the page.
  const loads = loadsInOrder();
  return create<SettingsState>((set, get) => ({
    view: null,
    draft: null,
    problems: {},
    loading: false,
    saving: false,
    restarting: false,
    restartLost: false,
    error: null,
    savedNote: null,

    load: () =>
      loadShowing(
        loads,
        set,
        () => call('getSettings'),
        (view) => ({ view, draft: draftOf(view), problems: {} }),
      ),

    edit(change) {
      const draft = { ...get().draft!, ...change };
      set({ draft, problems: problemsOf(draft), savedNote: null });
    },

    async save() {
      const draft = get().draft;
      if (!draft) return false;
      const problems = problemsOf(draft);
      if (Object.keys(problems).length > 0) {
        set({ problems });
        return false;
      }
      set({ saving: true, error: null });
      const before = get().view;
      try {
        const view = await call('saveSettings', { body: changesOf(before!, draft) as Partial<ServerSettings> });
        loads.changed();
        const live = (['corsOrigins', 'refreshIntervalMs'] as const).filter(
          (key) => !view.pinned[key] && JSON.stringify(before?.effective[key]) !== JSON.stringify(view.effective[key]),
        );
        set({ view, draft: draftOf(view), saving: false, savedNote: { live, restartNeeded: view.restartNeeded } });
        return true;
      } catch (error) {
        const field = error instanceof ApiError ? (error.param as SettingKey | null) : null;
        set({ saving: false, error: messageOf(error), ...(field && { problems: { [field]: messageOf(error) } }) });
        return false;
      }
    },

    async restartServe(startedAt) {
      set({ restarting: true, restartLost: false, error: null });
      try {
        await call('restartServer');
      } catch (error) {
        set({ restarting: false, error: messageOf(error) });
        return false;
      }
      for (let attempt = 0; attempt < RESTART_WAIT.attempts; attempt += 1) {
        await wait(RESTART_WAIT.everyMs);
        // The old run answers until it stops, then nothing answers for a moment: only a new run counts.
        const status = await call('getStatus').catch(() => null);
        if (status && status.startedAt !== startedAt) {
          set({ restarting: false, savedNote: null });
          return true;
        }
      }
      set({ restarting: false, restartLost: true });
      return false;
    },

    async keepSecretsInFile() {
      set({ saving: true, error: null });
      try {
        const before = get().view ?? (await call('getSettings'));
        const view = await call('saveSettings', { body: { ...before.saved, secrets: 'file' } });
        loads.changed();
        set({ view, draft: draftOf(view), problems: {}, saving: false });
        return true;
      } catch (error) {
        set({ saving: false, error: messageOf(error) });
        return false;
      }
    },

    async restart(bridge) {
      set({ restarting: true, error: null });
      try {
        const connection = await bridge.restartServer();
        set({ restarting: false, savedNote: null });
        return connection;
      } catch (error) {
        set({ restarting: false, error: messageOf(error) });
        return null;
      }
    },
  }));
}

export type SettingsStore = ReturnType<typeof createSettingsStore>;
