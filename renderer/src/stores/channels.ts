// Relay channels: list with health, add and edit (the key write-only), enable or disable, remove, and test results per channel.
import { create } from 'zustand';
import type { ChannelInput, ChannelSummary, ChannelTestResult } from '../../../shared/channels.ts';
import type { AdminCall } from '../api/admin-client.ts';
import { ApiError } from '../api/http.ts';
import type { FormResult } from './assets.ts';
import { messageOf } from './storage.ts';
import { withBusy } from './busy.ts';
import { loadInto, loadsInOrder } from './loads-in-order.ts';

export interface ChannelsState {
  channels: ChannelSummary[] | null;
  loading: boolean;
  error: string | null;
  /** Ids with an action under way (test, enable, remove). */
  busy: string[];
  actionError: string | null;
  /** The last test result of each channel tested in this session, by id. */
  tests: Record<string, ChannelTestResult>;
  load(): Promise<void>;
  /** Adds a channel (`channelId` null) or changes one. */
  save(channelId: string | null, body: ChannelInput): Promise<FormResult<ChannelSummary>>;
  setEnabled(channelId: string, enabled: boolean): Promise<void>;
  remove(channelId: string): Promise<void>;
  test(channelId: string, model?: string): Promise<void>;
  /** True while Test all runs. */
  testingAll: boolean;
  /** Tests every channel; each result lands in `tests`. */
  testAll(): Promise<void>;
  /** Reads the upstream's model list into the channel's models. */
  fetchModels(channelId: string): Promise<void>;
}

export function createChannelsStore(call: AdminCall) {
  // A list asked for before a change landed (the page opened, then a channel saved or tested) must not undo it.
  const loads = loadsInOrder();
  return create<ChannelsState>((set, get) => {
    const replace = (channel: ChannelSummary) => {
      loads.changed();
      const list = get().channels ?? [];
      const known = list.some((item) => item.id === channel.id);
      set({ channels: known ? list.map((item) => (item.id === channel.id ? channel : item)) : [...list, channel] });
    };
    return {
      channels: null,
      loading: false,
      error: null,
      busy: [],
      actionError: null,
      tests: {},
      testingAll: false,

      load: () => loadInto(loads, set, 'channels', () => call('listChannels')),

      async save(channelId, body) {
        try {
          const channel =
            channelId === null ? await call('createChannel', { body }) : await call('updateChannel', { params: { channelId }, body });
          replace(channel);
          return { ok: true, value: channel };
        } catch (error) {
          return { ok: false, message: messageOf(error), param: error instanceof ApiError ? error.param : null };
        }
      },

      setEnabled: (channelId, enabled) =>
        withBusy(set, get, channelId, async () => replace(await call('updateChannel', { params: { channelId }, body: { enabled } }))),

      remove: (channelId) =>
        withBusy(set, get, channelId, async () => {
          await call('removeChannel', { params: { channelId } });
          loads.changed();
          set({ channels: (get().channels ?? []).filter((item) => item.id !== channelId) });
        }),

      test: (channelId, model) =>
        withBusy(set, get, channelId, async () => {
          const result = await call('testChannel', { params: { channelId }, body: model ? { model } : {} });
          set({ tests: { ...get().tests, [channelId]: result } });
          // The test was recorded in the channel's health: show it.
          await get().load();
        }),

      async testAll() {
        set({ testingAll: true, actionError: null });
        try {
          const rows = await call('testAllChannels');
          set({ tests: { ...get().tests, ...Object.fromEntries(rows.map((row) => [row.channel_id, row])) } });
          await get().load();
        } catch (error) {
          set({ actionError: messageOf(error) });
        } finally {
          set({ testingAll: false });
        }
      },

      fetchModels: (channelId) =>
        withBusy(set, get, channelId, async () => {
          replace((await call('fetchChannelModels', { params: { channelId }, body: { save: true } })).channel);
        }),
    };
  });
}

export type ChannelsStore = ReturnType<typeof createChannelsStore>;
