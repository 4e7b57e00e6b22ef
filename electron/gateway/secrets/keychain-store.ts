// SecretStore backed by the OS keychain through keytar (Secret Service on Linux, Keychain on macOS, Credential Vault on Windows).
import { createRequire } from 'node:module';
import { KEYCHAIN_SERVICE, type SecretStore } from './secret-store.ts';

/** The part of keytar the gateway uses. */
interface Keytar {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

/** How long the keychain may take to answer the availability probe. */
const PROBE_TIMEOUT_MS = 3000;

/**
 * Loads keytar and checks that a keychain answers. Resolves to a store, or rejects with the reason
 * (keytar not installed, no Secret Service on the session bus, locked keychain that did not answer).
 */
export async function openKeychainStore(service = KEYCHAIN_SERVICE): Promise<SecretStore> {
  let keytar: Keytar;
  try {
    const loaded = createRequire(import.meta.url)('keytar') as Keytar & { default?: Keytar };
    keytar = loaded.default ?? loaded;
  } catch (error) {
    throw new Error(`keytar is not installed or did not load (${(error as Error).message})`);
  }
  await withTimeout(keytar.getPassword(service, 'probe'), PROBE_TIMEOUT_MS);
  return {
    kind: 'keychain',
    description: `the OS keychain (service "${service}")`,
    get: (key) => keytar.getPassword(service, key),
    set: (key, value) => keytar.setPassword(service, key, value),
    delete: (key) => keytar.deletePassword(service, key),
  };
}

/**
 * Why no keychain answered, in the user's words, from the error `openKeychainStore` rejected with:
 * "no keychain was found (no Secret Service on this machine)", "… (no D-Bus session on this machine)", or the error itself.
 */
export function keychainMissingCause(error: Error): string {
  const message = error.message;
  if (/org\.freedesktop\.secrets|ServiceUnknown|not provided by any \.service files/i.test(message))
    return 'no keychain was found (no Secret Service on this machine)';
  if (/autolaunch D-Bus|DBUS_SESSION_BUS_ADDRESS|Could not connect|Failed to connect to socket/i.test(message))
    return 'no keychain was found (no D-Bus session on this machine, so no Secret Service)';
  return `no keychain answered (${message})`;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the keychain did not answer within ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
