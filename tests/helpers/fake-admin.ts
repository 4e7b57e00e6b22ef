// Test double of the admin API client: canned answers per route, and a record of every call made.
import type { AdminApi, AdminRouteName } from '../../shared/admin-api.ts';
import type { AdminCall, CallInput } from '../../renderer/src/api/admin-client.ts';

type Handlers = { [K in AdminRouteName]?: (input: CallInput<K>) => AdminApi[K]['reply'] | Promise<AdminApi[K]['reply']> };

export interface FakeAdmin {
  call: AdminCall;
  calls: Array<{ name: AdminRouteName; input: any }>;
}

export function fakeAdmin(handlers: Handlers): FakeAdmin {
  const calls: FakeAdmin['calls'] = [];
  const call = (async (name: AdminRouteName, input?: any) => {
    calls.push({ name, input });
    const handler = handlers[name] as ((input: any) => unknown) | undefined;
    if (!handler) throw new Error(`unexpected call ${name}`);
    return handler(input ?? {});
  }) as AdminCall;
  return { call, calls };
}
