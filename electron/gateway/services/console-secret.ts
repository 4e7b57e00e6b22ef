// The per-install console secret: the admin token a bookmarked console address carries, kept in the secret store (one per data dir) and rotatable.
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import { keepsNothingWhy, type SecretStore } from '../secrets/secret-store.ts';

/** The secret store key of a data dir's console secret (the keychain is shared by every data dir of the user). */
export function consoleSecretKey(dataDir: string): string {
  return `console:${createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 16)}`;
}

const freshSecret = () => randomBytes(32).toString('base64url');

/**
 * The kept console secret of `dataDir`, or null when none was kept yet (`gatehouse serve` keeps one at its first start;
 * Settings and `gatehouse console-secret rotate` replace it), the store keeps nothing (`--secrets none`, or no keychain was found) or cannot be read now.
 */
export async function keptConsoleSecret(store: SecretStore, dataDir: string): Promise<string | null> {
  if (store.kind === 'none') return null;
  try {
    return (await store.get(consoleSecretKey(dataDir))) || null;
  } catch {
    return null;
  }
}

/**
 * Keeps a new console secret for `dataDir` (replacing any kept one; `secret`: this one instead of a fresh one, such as the
 * per-run token of an open console) and returns it; throws when the store keeps nothing or fails.
 */
export async function rotateConsoleSecret(store: SecretStore, dataDir: string, secret = freshSecret()): Promise<string> {
  if (store.kind === 'none')
    throw new Error(`the gateway keeps no secrets, because ${keepsNothingWhy(store)}: the console address is made per run`);
  await store.set(consoleSecretKey(dataDir), secret);
  return secret;
}
