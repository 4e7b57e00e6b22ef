// The console's own preferences: theme and language, kept in the browser's storage.
import { create } from 'zustand';
import type { KeyValueStorage } from './storage.ts';

export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];
export const LANGUAGES = ['en', 'zh'] as const;
export type Language = (typeof LANGUAGES)[number];

const KEY = 'gatehouse.prefs';

export interface PrefsState {
  theme: Theme;
  language: Language;
  setTheme(theme: Theme): void;
  setLanguage(language: Language): void;
}

/** The language to start with: a stored choice, else Chinese for a zh-* browser, else English. */
export function initialLanguage(stored: unknown, browserLanguage: string | undefined): Language {
  if (LANGUAGES.includes(stored as Language)) return stored as Language;
  return browserLanguage?.toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

export function createPrefsStore(storage: KeyValueStorage, browserLanguage?: string) {
  let saved: Partial<Record<'theme' | 'language', unknown>> = {};
  try {
    saved = JSON.parse(storage.getItem(KEY) ?? '{}') as typeof saved;
  } catch {
    saved = {};
  }
  const store = create<PrefsState>((set) => ({
    theme: THEMES.includes(saved.theme as Theme) ? (saved.theme as Theme) : 'system',
    language: initialLanguage(saved.language, browserLanguage),
    setTheme: (theme) => set({ theme }),
    setLanguage: (language) => set({ language }),
  }));
  store.subscribe((state) => storage.setItem(KEY, JSON.stringify({ theme: state.theme, language: state.language })));
  return store;
}

export type PrefsStore = ReturnType<typeof createPrefsStore>;
