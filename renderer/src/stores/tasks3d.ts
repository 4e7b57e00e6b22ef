// 3D tasks as the gateway keeps them: a page of every task (any client's) from the admin API, creation with an API token, look-up by id.
import { create } from 'zustand';
import type { Page } from '../../../shared/portrait.ts';
import type { AdminTask3d } from '../../../shared/tasks3d.ts';
import type { AdminCall } from '../api/admin-client.ts';
import { TASK_DONE, type Task3dInput, type Tasks3dClient } from '../api/tasks3d.ts';
import { loadInto, loadsInOrder } from './loads-in-order.ts';
import { messageOf } from './storage.ts';

/** Tasks shown per page. */
export const TASKS_PAGE_SIZE = 10;

export interface Tasks3dState {
  /** The account whose tasks are listed; '' lists every account's. */
  filter: string;
  page: Page<AdminTask3d> | null;
  loading: boolean;
  error: string | null;
  creating: boolean;
  createError: string | null;
  /** The task found by "look up by id", or the reason none was. */
  found: AdminTask3d | null;
  findError: string | null;
  finding: boolean;
  /** Loads page `p` (default: the current one) of the tasks of `filter`. */
  load(p?: number): Promise<void>;
  setFilter(account: string): Promise<void>;
  create(apiKey: string, input: Task3dInput): Promise<boolean>;
  find(taskId: string): Promise<void>;
}

export const isDone = (task: { status: string }) => TASK_DONE.includes(task.status);

/** The store; it lists every account's tasks until an account is chosen. */
export function createTasks3dStore(call: AdminCall, client: Tasks3dClient) {
  // An answer of the account the page has left, or older than one shown (a reload after a task's creation), is dropped.
  const loads = loadsInOrder();
  // The page last asked for: a reload (the page's poll) reads it, not the page shown, which a click may be leaving.
  let askedPage = 1;
  return create<Tasks3dState>((set, get) => ({
    filter: '',
    page: null,
    loading: false,
    error: null,
    creating: false,
    createError: null,
    found: null,
    findError: null,
    finding: false,

    async load(p) {
      askedPage = p ?? askedPage;
      const query = { p: askedPage, page_size: TASKS_PAGE_SIZE, account: get().filter };
      await loadInto(loads, set, 'page', () => call('listTasks3d', { query }));
    },

    async setFilter(account) {
      if (account === get().filter && get().page) return;
      set({ filter: account, page: null });
      loads.moved();
      await get().load(1);
    },

    async create(apiKey, input) {
      set({ creating: true, createError: null });
      try {
        await client.create(apiKey, input);
        set({ creating: false });
        await get().load(1);
        return true;
      } catch (error) {
        set({ creating: false, createError: messageOf(error) });
        return false;
      }
    },

    async find(taskId) {
      const id = taskId.trim();
      if (id === '') return;
      set({ finding: true, findError: null });
      try {
        set({ found: await call('getTask3d', { params: { taskId: id } }), finding: false });
      } catch (error) {
        set({ found: null, findError: messageOf(error), finding: false });
      }
    },
  }));
}

export type Tasks3dStore = ReturnType<typeof createTasks3dStore>;
