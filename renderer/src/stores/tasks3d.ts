// 3D tasks started from the console: create, poll until done, and keep their ids across reloads.
import { create } from 'zustand';
import { TASK_DONE, type Task3d, type Task3dInput, type Tasks3dClient } from '../api/tasks3d.ts';
import { messageOf, type KeyValueStorage } from './storage.ts';

const KEY = 'gatehouse.tasks3d';

/** A task the console follows, with the account whose token created it. */
export interface TrackedTask {
  account: string;
  task: Task3d;
  /** The last polling error, shown beside the task. */
  error: string | null;
}

export interface Tasks3dState {
  tasks: TrackedTask[];
  creating: boolean;
  createError: string | null;
  create(account: string, apiKey: string, input: Task3dInput): Promise<boolean>;
  /** Polls every unfinished task of the account once. */
  poll(account: string, apiKey: string): Promise<void>;
  remove(taskId: string): void;
}

export const isDone = (task: Task3d) => TASK_DONE.includes(task.status);

export function createTasks3dStore(client: Tasks3dClient, storage: KeyValueStorage) {
  let initial: TrackedTask[] = [];
  try {
    initial = (JSON.parse(storage.getItem(KEY) ?? '[]') as TrackedTask[]).filter((item) => item?.task?.task_id);
  } catch {
    initial = [];
  }
  const store = create<Tasks3dState>((set, get) => {
    const update = (taskId: string, change: Partial<TrackedTask>) =>
      set({ tasks: get().tasks.map((item) => (item.task.task_id === taskId ? { ...item, ...change } : item)) });
    return {
      tasks: initial,
      creating: false,
      createError: null,
      async create(account, apiKey, input) {
        set({ creating: true, createError: null });
        try {
          const task = await client.create(apiKey, input);
          set({ tasks: [{ account, task, error: null }, ...get().tasks], creating: false });
          return true;
        } catch (error) {
          set({ creating: false, createError: messageOf(error) });
          return false;
        }
      },
      async poll(account, apiKey) {
        const pending = get().tasks.filter((item) => item.account === account && !isDone(item.task));
        await Promise.all(
          pending.map(async (item) => {
            try {
              update(item.task.task_id, { task: await client.get(apiKey, item.task.task_id), error: null });
            } catch (error) {
              update(item.task.task_id, { error: messageOf(error) });
            }
          }),
        );
      },
      remove: (taskId) => set({ tasks: get().tasks.filter((item) => item.task.task_id !== taskId) }),
    };
  });
  store.subscribe((state) => storage.setItem(KEY, JSON.stringify(state.tasks.slice(0, 50))));
  return store;
}

export type Tasks3dStore = ReturnType<typeof createTasks3dStore>;
