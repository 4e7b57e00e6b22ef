// Which page the console shows; the address hash mirrors it so reloads and links keep the page.
import { create } from 'zustand';

export const PAGES = [
  'overview',
  'connect',
  'models',
  'assets',
  'tasks3d',
  'playground',
  'tokens',
  'channels',
  'fixtures',
  'cassettes',
  'logs',
  'settings',
] as const;
export type PageName = (typeof PAGES)[number];

/** The page a hash such as `#/assets` names, or the overview. */
export function pageOfHash(hash: string): PageName {
  const name = hash.replace(/^#\/?/, '');
  return (PAGES as readonly string[]).includes(name) ? (name as PageName) : 'overview';
}

export interface NavigationState {
  page: PageName;
  go(page: PageName): void;
}

export function createNavigationStore(initial: PageName = 'overview') {
  return create<NavigationState>((set) => ({ page: initial, go: (page) => set({ page }) }));
}

export type NavigationStore = ReturnType<typeof createNavigationStore>;
