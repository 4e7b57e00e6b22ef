// The Models page's alias editor: the saved model aliases, this run's and the flag that pins them, saved through the settings API.
import { create } from 'zustand';
import { aliasPartProblem } from '../../../shared/model-aliases.ts';
import type { ServerSettings, SettingsView } from '../../../shared/settings.ts';
import type { AdminCall } from '../api/admin-client.ts';
import { loadsInOrder } from './loads-in-order.ts';
import { messageOf } from './storage.ts';

export interface ModelAliasesState {
  view: SettingsView | null;
  saving: boolean;
  error: string | null;
  load(): Promise<void>;
  /** Saves `name → target` (replacing `previous` when an alias is renamed); true when saved. */
  put(name: string, target: string, previous?: string): Promise<boolean>;
  remove(name: string): Promise<boolean>;
}

/** The aliases the next start uses when no flag pins them: the saved ones, else none. */
export function savedAliases(view: SettingsView): Record<string, string> {
  return { ...view.saved.modelAliases };
}

/** The problem with a typed alias, checked as the server checks it, or null. */
export function aliasDraftProblem(name: string, target: string): string | null {
  return aliasPartProblem(name.trim(), 'name') ?? aliasPartProblem(target.trim(), 'target');
}

export function createModelAliasesStore(call: AdminCall) {
  // A view read before a save must not come back: the next alias saved is written over the settings it shows.
  const loads = loadsInOrder();
  return create<ModelAliasesState>((set, get) => {
    const save = async (aliases: Record<string, string>) => {
      const view = get().view;
      if (!view) return false;
      set({ saving: true, error: null });
      try {
        const body: Partial<ServerSettings> = { ...view.saved, modelAliases: aliases };
        const saved = await call('saveSettings', { body });
        loads.changed();
        set({ view: saved, saving: false });
        return true;
      } catch (error) {
        set({ saving: false, error: messageOf(error) });
        return false;
      }
    };
    return {
      view: null,
      saving: false,
      error: null,
      async load() {
        await loads.run(
          () => call('getSettings'),
          (view) => set({ view, error: null }),
          (error) => set({ error: messageOf(error) }),
        );
      },
      put(name, target, previous) {
        const aliases = savedAliases(get().view!);
        if (previous !== undefined) delete aliases[previous];
        aliases[name.trim()] = target.trim();
        return save(aliases);
      },
      remove(name) {
        const aliases = savedAliases(get().view!);
        delete aliases[name];
        return save(aliases);
      },
    };
  });
}

export type ModelAliasesStore = ReturnType<typeof createModelAliasesStore>;
