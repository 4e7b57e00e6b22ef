// Translation of the console's texts: English and Chinese dictionaries with {name} placeholders.
import { useCallback } from 'react';
import { useStores } from '../context.ts';
import type { Language } from '../stores/prefs.ts';
import { en, type MessageKey } from './en.ts';
import { zh } from './zh.ts';

export type { MessageKey } from './en.ts';

const DICTIONARIES: Record<Language, Record<MessageKey, string>> = { en, zh };

/** Variables filled into a message's {placeholders}. */
export type MessageVars = Record<string, string | number>;

export function translate(language: Language, key: MessageKey, vars: MessageVars = {}): string {
  const text = DICTIONARIES[language][key] ?? en[key];
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}

/** The translate function of the chosen language. */
export function useT(): (key: MessageKey, vars?: MessageVars) => string {
  const language = useStores().prefs((state) => state.language);
  return useCallback((key: MessageKey, vars?: MessageVars) => translate(language, key, vars), [language]);
}

/** The BCP 47 tag of a console language: Simplified Chinese, or the English one asked for (`en-GB` writes 24-hour times). */
export function localeOf(language: Language, english: 'en' | 'en-GB' = 'en'): string {
  return language === 'zh' ? 'zh-CN' : english;
}

/**
 * The formatters of each language, made once: making an Intl formatter costs about a hundred times its use (a table of
 * times made two per row on every render), and the first of a kind loads the locale's data. A time
 * formatter keeps the time zone it was made in until the page reloads.
 */
const FORMATTERS = {
  time: (language: Language) => new Intl.DateTimeFormat(localeOf(language, 'en-GB'), { dateStyle: 'medium', timeStyle: 'medium' }),
  clock: (language: Language) =>
    new Intl.DateTimeFormat(localeOf(language, 'en-GB'), {
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      fractionalSecondDigits: 3,
      hour12: false,
    }),
  relative: (language: Language) => new Intl.RelativeTimeFormat(localeOf(language), { numeric: 'auto' }),
  count: (language: Language) => new Intl.NumberFormat(localeOf(language)),
};
type FormatterKind = keyof typeof FORMATTERS;
const made = new Map<string, unknown>();

/** The formatter of `kind` for `language`, made on its first use. */
function formatter<K extends FormatterKind>(kind: K, language: Language): ReturnType<(typeof FORMATTERS)[K]> {
  const key = `${kind} ${language}`;
  let format = made.get(key);
  if (format === undefined) made.set(key, (format = FORMATTERS[kind](language)));
  return format as ReturnType<(typeof FORMATTERS)[K]>;
}

/** A time as the user's language writes it. */
export function formatTime(language: Language, ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  return formatter('time', language).format(ms);
}

/** The time of day with milliseconds (13:05:09.042), for rows that are seconds apart. */
export function formatClock(language: Language, ms: number): string {
  return formatter('clock', language).format(ms);
}

/** A count (requests, tokens) with the language's digit grouping. */
export function formatCount(language: Language, value: number): string {
  return formatter('count', language).format(value);
}

/** "in 3 min" / "2 s ago" in the user's language. */
export function formatRelative(language: Language, ms: number, now: number): string {
  const seconds = Math.round((ms - now) / 1000);
  const format = formatter('relative', language);
  if (Math.abs(seconds) < 90) return format.format(seconds, 'second');
  const minutes = Math.round(seconds / 60);
  if (Math.abs(minutes) < 90) return format.format(minutes, 'minute');
  return format.format(Math.round(minutes / 60), 'hour');
}
