// API tokens as the admin API and the CLI show and change them: never the secret unasked.

/** A token as listed anywhere (CLI, admin API): never the secret itself. */
export interface TokenSummary {
  token_id: string;
  account: string;
  name: string;
  /** Prefix and last characters of the secret. */
  hint: string;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
  /** Spending limit in currency units; null means unlimited. */
  quota: number | null;
  used: number;
  /** The model names the token may call (as the caller names them); null: any model. */
  models: string[] | null;
  /** When the token was last accepted (recorded at most about once a minute); null: never. */
  last_used_at: number | null;
}

/** A token as the console lists it. */
export interface AdminToken extends TokenSummary {
  /** True when the secret store kept the secret, so "reveal" can show it again. */
  revealable: boolean;
}

/** The console's API key of an account: one token shared by every console session (see `obtainConsoleKey`). */
export interface ConsoleKey {
  token_id: string;
  secret: string;
  /** `revealed`: a token whose secret the store kept; `created`: the `console` token this run made (and remembers). */
  source: 'revealed' | 'created';
}

/** A newly created token: the only answer that carries the secret unasked. */
export interface CreatedToken {
  token: AdminToken;
  secret: string;
}

/** Body of a token creation. `expires_at` is epoch ms; `quota` in currency units. */
export interface TokenCreateBody {
  account: string;
  name?: string;
  expires_at?: number;
  quota?: number;
  /** Model names the token may call; absent: any model. */
  models?: string[];
}

/** Body of a token edit: each field present is changed (null: no expiry, no quota, any model). */
export interface TokenUpdateBody {
  /** Epoch ms, in the future. */
  expires_at?: number | null;
  /** Spending limit in currency units. */
  quota?: number | null;
  /** Model names the token may call (at most `TOKEN_MODELS_MAX`). */
  models?: string[] | null;
}

/** Most model names one token may be limited to. */
export const TOKEN_MODELS_MAX = 50;
