// The caller behind a request: known to every layer (services bill it, providers receive it in their call context).

/** The caller behind a request, once its token is accepted. */
export interface Principal {
  accountId: number;
  accountName: string;
  tokenId: string;
  /** The models the token may call; absent or null: any model. */
  models?: readonly string[] | null;
}
