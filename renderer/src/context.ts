// React access to the console's stores, built once at start-up.
import { createContext, useContext } from 'react';
import type { ConsoleStores } from './stores/index.ts';

export const StoresContext = createContext<ConsoleStores | null>(null);

/** The console's stores; only valid below the provider in main.tsx. */
export function useStores(): ConsoleStores {
  const stores = useContext(StoresContext);
  if (!stores) throw new Error('useStores outside StoresContext');
  return stores;
}
