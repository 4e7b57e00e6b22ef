// Test helper: a provider selector answering every call with a fake bundle of only the capabilities a test gives, recording the calls it chose for.
import type { CallContext, ProviderBundle, ProviderSelector } from '../../electron/gateway/providers/types.ts';

/** A selector whose one bundle has `parts`; reaching any other capability throws, naming it (the optional `passthrough` is just absent). `calls` lists each `for()` call's context. */
export function fakeProviders(parts: Partial<ProviderBundle>): ProviderSelector & { calls: (CallContext | undefined)[] } {
  const bundle = new Proxy({ mode: 'relay', ...parts } as ProviderBundle, {
    get(target, key) {
      // An optional capability the test did not give is absent, as in a real bundle.
      if (key === 'passthrough' && !(key in target)) return undefined;
      if (!(key in target)) throw new Error(`the fake provider bundle has no ${String(key)}`);
      return target[key as keyof ProviderBundle];
    },
  });
  const calls: (CallContext | undefined)[] = [];
  return {
    calls,
    for(call?: CallContext) {
      calls.push(call);
      return bundle;
    },
  };
}
