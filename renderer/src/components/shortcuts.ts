// Keyboard shortcuts of the console: which key (or `g` then a key) does what; pure, so the overlay and the handler share one table.
import type { PageName } from '../stores/navigation.ts';

/** `g` followed by one of these keys opens the page. */
export const GO_KEYS: Readonly<Record<string, PageName>> = {
  o: 'overview',
  c: 'connect',
  m: 'models',
  a: 'assets',
  d: 'tasks3d',
  p: 'playground',
  t: 'tokens',
  h: 'channels',
  f: 'fixtures',
  r: 'cassettes',
  l: 'logs',
  s: 'settings',
};

/** What a key press asks for. */
export type ShortcutAction =
  | { kind: 'go'; page: PageName }
  | { kind: 'search' }
  | { kind: 'copyBaseUrl' }
  | { kind: 'help' }
  | { kind: 'close' }
  | { kind: 'prefix' }
  | { kind: 'none' };

/** The action of `key`, given whether the previous key was the `g` prefix. */
export function shortcutOf(key: string, afterPrefix: boolean): ShortcutAction {
  if (afterPrefix) {
    const page = GO_KEYS[key.toLowerCase()];
    return page ? { kind: 'go', page } : { kind: 'none' };
  }
  switch (key) {
    case 'g':
      return { kind: 'prefix' };
    case '/':
      return { kind: 'search' };
    case 'b':
      return { kind: 'copyBaseUrl' };
    case '?':
      return { kind: 'help' };
    case 'Escape':
      return { kind: 'close' };
    default:
      return { kind: 'none' };
  }
}

/** What isTyping reads of a key press. */
export interface KeyPress {
  target: unknown;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
}

/** True when a key press belongs to a field being typed in (or carries a modifier), so shortcuts leave it alone. */
export function isTyping(event: KeyPress): boolean {
  if (event.ctrlKey || event.metaKey || event.altKey) return true;
  const target = event.target as { closest?: (selector: string) => unknown } | null;
  if (!target || typeof target.closest !== 'function') return false;
  return target.closest('input, textarea, select, [contenteditable="true"]') !== null;
}
