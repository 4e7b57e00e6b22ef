// The caller behind a request: known to every layer (services bill it, providers receive it in their call context).

/** The caller behind a request, once its token is accepted. */
export interface Principal {
  accountId: number;
  accountName: string;
  tokenId: string;
  /** The token's name, or its hint when unnamed, as the journal shows it (set when a request's token is accepted). */
  tokenLabel?: string;
}
