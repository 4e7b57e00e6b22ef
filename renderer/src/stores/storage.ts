// The key-value storage stores persist to (localStorage/sessionStorage in the page, a Map in tests).

/** The parts of the Web Storage API the stores use. */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** A storage in memory, for tests and for pages where Web Storage is blocked. */
export function memoryStorage(): KeyValueStorage {
  const entries = new Map<string, string>();
  return {
    getItem: (key) => entries.get(key) ?? null,
    setItem: (key, value) => void entries.set(key, value),
    removeItem: (key) => void entries.delete(key),
  };
}

/** The message of anything thrown, for showing to the user. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
