// The per-install console secret: the admin token a bookmarked console address carries, kept in the secret store (one per data dir) and rotatable.
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import type { SecretStore } from '../secrets/secret-store.ts';

/** The secret store key of a data dir's console secret (the keychain is shared by every data dir of the user). */
export function consoleSecretKey(dataDir: string): string {
  return `console:${createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 16)}`;
}

const freshSecret = () => randomBytes(32).toString('base64url');

/**
 * The kept console secret of `dataDir`, made and kept on first use; null when the store keeps nothing
 * (`--secrets none`) or cannot be used now (the caller then makes a per-run token, as before).
 */
export async function keptConsoleSecret(store: SecretStore, dataDir: string): Promise<string | null> {
  if (store.kind === 'none') return null;
  try {
    const key = consoleSecretKey(dataDir);
    const kept = await store.get(key);
    if (kept) return kept;
    const secret = freshSecret();
    await store.set(key, secret);
    return secret;
  } catch {
    return null;
  }
}

/** Replaces the kept console secret of `dataDir` with a new one and returns it; throws when the store keeps nothing or fails. */
export async function rotateConsoleSecret(store: SecretStore, dataDir: string): Promise<string> {
  if (store.kind === 'none') throw new Error('the secret store keeps nothing (--secrets none): the console address is made per run');
  const secret = freshSecret();
  await store.set(consoleSecretKey(dataDir), secret);
  return secret;
}
