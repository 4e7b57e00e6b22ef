// Rerank calls: the provider of the call scores the documents, and the call is billed by the tokens the provider counted.
import type { CallContext, ProviderSelector } from '../providers/types.ts';
import type { BillingService } from './billing.ts';

export class RerankService {
  private readonly providers: ProviderSelector;
  private readonly billing: BillingService;
  constructor(providers: ProviderSelector, billing: BillingService) {
    this.providers = providers;
    this.billing = billing;
  }

  /** The documents' relevance to the query, best first (at most `topN`), charged to the caller by the provider's usage. */
  async rerank(request: { model: string; query: string; documents: readonly string[]; topN?: number }, call: CallContext) {
    const result = await this.providers.for(call, request.model).rerank.rerank(request, call);
    this.billing.charge(call.principal, {
      endpoint: call.endpoint,
      model: request.model,
      inputTokens: result.usage.inputTokens,
      outputTokens: 0,
    });
    return result;
  }
}
