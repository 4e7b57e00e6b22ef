// The stored forms (hashes) of the API token secrets presented lately, so a client's every call does not hash its token again.
import { hashToken } from '../ids.ts';

/** Most token secrets whose hashes are kept at once; past it they are all forgotten (and hashed again when presented). */
export const KEPT_TOKEN_HASHES = 64;

/**
 * Secret → hash of tokens that named a token of this gateway (`keep` is told only then, so a stranger's guesses never
 * fill it). Kept in memory only, as the secrets of calls in flight are; a deleted token's entry just finds no row.
 */
export class TokenHashes {
  private readonly kept = new Map<string, string>();

  /** The hash of `secret`: the one kept, else computed. */
  of(secret: string): string {
    return this.kept.get(secret) ?? hashToken(secret);
  }

  /** Keeps the hash of a secret that named a token of this gateway. */
  keep(secret: string, hash: string): void {
    if (this.kept.has(secret)) return;
    if (this.kept.size >= KEPT_TOKEN_HASHES) this.kept.clear();
    this.kept.set(secret, hash);
  }
}
