// Accounts and API tokens: issue, list, revoke, and authenticate a presented secret.
import type { TokenSummary } from '../../../shared/admin-tokens.ts';
import { hashToken, newTokenSecret, publicId, tokenHint } from '../ids.ts';
import type { AccountsRepo } from '../storage/accounts-repo.ts';
import type { TokenIdentity, TokenRow, TokensRepo } from '../storage/tokens-repo.ts';
import type { Clock } from '../time.ts';
import { FIELD_LIMITS, tooLongMessage } from '../../../shared/field-limits.ts';
import { GatewayError, invalid } from '../errors.ts';
import type { Principal } from '../principal.ts';
import { TokenHashes } from './token-hashes.ts';

/** Micro-units per unit of currency: amounts are stored as integers. */
export const MICROS = 1_000_000;

export type { Principal };

/** Who holds a presented token (usable or refused): the account and token by name, for the journal, and by id, for the usage totals. */
export interface TokenHolder {
  account: string;
  token: string;
  accountId: number;
  tokenId: string;
}

export interface CreateTokenInput {
  account: string;
  name?: string;
  expiresAt?: number;
  /** Spending limit in currency units; absent means unlimited. */
  quota?: number;
  /** Model names the token may call; absent means any. */
  models?: string[];
}

export type { TokenSummary };

/** A checked token not yet written: its id and secret are known before anything is stored. */
export interface TokenDraft {
  readonly tokenId: string;
  readonly secret: string;
  readonly input: CreateTokenInput;
}

/** A token's last use is written at most once per this many ms (a call within it changes nothing on disk). */
export const LAST_USED_RESOLUTION_MS = 60_000;

/** An edit of a token: each field present is changed (null: no expiry, no quota, any model). */
export interface TokenEdit {
  expiresAt?: number | null;
  quota?: number | null;
  models?: string[] | null;
}

export class TokensService {
  private readonly accounts: AccountsRepo;
  private readonly tokens: TokensRepo;
  private readonly clock: Clock;
  /** The hashes of the secrets presented lately (each API call presents its token). */
  private readonly hashes = new TokenHashes();
  /** The principal of each token row kept by the repository (`principalOf`); a row no longer kept takes its principal with it. */
  private readonly principals = new WeakMap<Readonly<TokenIdentity>, Principal>();
  constructor(accounts: AccountsRepo, tokens: TokensRepo, clock: Clock) {
    this.accounts = accounts;
    this.tokens = tokens;
    this.clock = clock;
  }

  /** Issues a token (creating its account on first use) and returns the secret: the only time it is seen. */
  create(input: CreateTokenInput): { secret: string; token: TokenSummary } {
    const draft = this.draft(input);
    return { secret: draft.secret, token: this.insert(draft) };
  }

  /** Checks a new token and makes its id and secret; nothing is written until `insert` (see `issueToken`). */
  draft(input: CreateTokenInput): TokenDraft {
    if (input.account.length > FIELD_LIMITS.accountName) throw invalid(tooLongMessage('account', FIELD_LIMITS.accountName), 'account');
    if (input.name !== undefined && input.name.length > FIELD_LIMITS.tokenName)
      throw invalid(tooLongMessage('name', FIELD_LIMITS.tokenName), 'name');
    return { tokenId: publicId('tok'), secret: newTokenSecret(), input };
  }

  /**
   * Makes a secret given from outside (`GATEHOUSE_TOKEN`) a token of `account` (created when missing), stored hashed like
   * any token; a secret already stored is left as it is (the same value works across restarts). Answers whether it was added.
   */
  ensureGiven(secret: string, account: string): boolean {
    if (this.tokens.findByHash(hashToken(secret))) return false;
    this.insert({ tokenId: publicId('tok'), secret, input: { account, name: 'GATEHOUSE_TOKEN' } });
    return true;
  }

  /** Writes a drafted token, creating its account on first use. */
  insert(draft: TokenDraft): TokenSummary {
    const { input, secret } = draft;
    const now = this.clock.now();
    const account = this.accounts.ensure(input.account, now);
    const row = this.tokens.insert({
      token_id: draft.tokenId,
      account_id: account.id,
      name: input.name ?? 'default',
      token_hash: hashToken(secret),
      token_hint: tokenHint(secret),
      created_at: now,
      expires_at: input.expiresAt ?? null,
      quota_micros: input.quota === undefined ? null : Math.round(input.quota * MICROS),
      models: input.models === undefined ? null : JSON.stringify(input.models),
    });
    return summarize(row);
  }

  list(account?: string): TokenSummary[] {
    if (account === undefined) return this.tokens.list().map(summarize);
    const row = this.accounts.findByName(account);
    return row ? this.tokens.list(row.id).map(summarize) : [];
  }

  revoke(tokenId: string): boolean {
    return this.tokens.revoke(tokenId, this.clock.now());
  }

  /** Changes a token's expiry, quota or model limit; false when it does not exist. */
  update(tokenId: string, edit: TokenEdit): boolean {
    return this.tokens.update(tokenId, {
      ...(edit.expiresAt !== undefined && { expires_at: edit.expiresAt }),
      ...(edit.quota !== undefined && { quota_micros: edit.quota === null ? null : Math.round(edit.quota * MICROS) }),
      ...(edit.models !== undefined && { models: edit.models === null ? null : JSON.stringify(edit.models) }),
    });
  }

  /** Deletes a revoked token; false when there is no revoked token of that id. */
  deleteRevoked(tokenId: string): boolean {
    return this.tokens.deleteRevoked(tokenId);
  }

  /**
   * The account and token name (its hint when unnamed) of a presented secret that names a token, usable or
   * not (revoked, expired, out of quota); null for anything else.
   */
  holderOf(secret: string | undefined): TokenHolder | null {
    if (secret === undefined || secret === '') return null;
    const row = this.identify(secret);
    return row ? { account: row.account_name, token: labelOf(row), accountId: row.account_id, tokenId: row.token_id } : null;
  }

  /** Accepts a presented secret or throws 401 (missing, unknown) / 403 (revoked, expired, quota used up). */
  authenticate(secret: string | undefined): Principal {
    if (secret === undefined || secret === '') {
      throw new GatewayError('unauthorized', 'Missing API token: send it as Authorization: Bearer <token>');
    }
    const row = this.identify(secret);
    if (!row) throw new GatewayError('unauthorized', 'Invalid API token');
    const lapsed = lapsedToken(row, this.clock.now());
    if (lapsed) throw lapsed;
    if (row.quota_micros !== null && (this.tokens.usedMicros(row.token_id) ?? 0) >= row.quota_micros) {
      throw new GatewayError('forbidden', 'This API token has used up its quota');
    }
    this.noteUse(row);
    return this.principalOf(row);
  }

  /**
   * The principal of an accepted token's row: made once per row the repository keeps (a row stays the same object until
   * the tokens table changes), frozen and shared by the token's calls, so a call does not build it (nor parse its model
   * list) again.
   */
  private principalOf(row: Readonly<TokenIdentity>): Principal {
    let principal = this.principals.get(row);
    if (principal === undefined) {
      const models = modelsOf(row);
      principal = Object.freeze({
        accountId: row.account_id,
        accountName: row.account_name,
        tokenId: row.token_id,
        tokenLabel: labelOf(row),
        models: models === null ? null : Object.freeze(models),
        quotaMicros: row.quota_micros,
      });
      this.principals.set(row, principal);
    }
    return principal;
  }

  /** The token a presented secret names, usable or not; undefined when it names none. */
  private identify(secret: string): Readonly<TokenIdentity> | undefined {
    const hash = this.hashes.of(secret);
    const row = this.tokens.identify(hash);
    if (row) this.hashes.keep(secret, hash);
    return row;
  }

  /** Records the use of an accepted token, at most once per `LAST_USED_RESOLUTION_MS`; a failed write costs the note, never the call. */
  private noteUse(row: TokenIdentity): void {
    const now = this.clock.now();
    if (row.last_used_at !== null && now - row.last_used_at < LAST_USED_RESOLUTION_MS && now >= row.last_used_at) return;
    try {
      this.tokens.touch(row.token_id, now);
    } catch {
      // A busy database: the next call past the resolution tries again.
    }
  }
}

/** Why a token may no longer call at `now` (revoked, or expired: a 403), or undefined while it may; its quota aside. */
export function lapsedToken(row: Pick<TokenIdentity, 'revoked_at' | 'expires_at'>, now: number): GatewayError | undefined {
  if (row.revoked_at !== null) return new GatewayError('forbidden', 'This API token has been revoked');
  if (row.expires_at !== null && row.expires_at <= now) return new GatewayError('forbidden', 'This API token has expired');
  return undefined;
}

/** The models a token's row allows (its JSON list), or null for any model (a limit that does not read allows none, never all). */
export function modelsOf(row: Pick<TokenIdentity, 'models'>): string[] | null {
  if (row.models === null) return null;
  try {
    const parsed: unknown = JSON.parse(row.models);
    return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === 'string') : [];
  } catch {
    return [];
  }
}

/** How the journal names a token: its name, or its hint when unnamed. */
const labelOf = (row: TokenIdentity): string => row.name || row.token_hint;

function summarize(row: TokenRow): TokenSummary {
  return {
    token_id: row.token_id,
    account: row.account_name,
    name: row.name,
    hint: row.token_hint,
    created_at: row.created_at,
    expires_at: row.expires_at,
    revoked_at: row.revoked_at,
    quota: row.quota_micros === null ? null : row.quota_micros / MICROS,
    used: row.used_micros / MICROS,
    models: modelsOf(row),
    last_used_at: row.last_used_at,
  };
}
