// The models the gateway lists (admin API), for the Models page and the Playground's chat model choices.
import { create } from 'zustand';
import type { ModelEntry } from '../../../shared/models.ts';
import type { AdminCall } from '../api/admin-client.ts';
import { messageOf } from './storage.ts';

export interface ModelsState {
  models: ModelEntry[] | null;
  loading: boolean;
  error: string | null;
  load(): Promise<void>;
}

export function createModelsStore(call: AdminCall) {
  return create<ModelsState>((set) => ({
    models: null,
    loading: false,
    error: null,
    async load() {
      set({ loading: true });
      try {
        set({ models: await call('listModels'), error: null, loading: false });
      } catch (error) {
        set({ error: messageOf(error), loading: false });
      }
    },
  }));
}
