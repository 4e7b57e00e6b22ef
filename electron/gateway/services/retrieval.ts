// Embeddings and rerank calls: the call's provider does the work and counts the input tokens, and the call is billed by them.
import type { CallContext, EmbeddingInput, ProviderSelector } from '../providers/types.ts';
import type { BillingService } from './billing.ts';

export class RetrievalService {
  private readonly providers: ProviderSelector;
  private readonly billing: BillingService;
  constructor(providers: ProviderSelector, billing: BillingService) {
    this.providers = providers;
    this.billing = billing;
  }

  /** One vector per input, in order, charged to the caller by the provider's usage. */
  async embed(request: { model: string; inputs: readonly EmbeddingInput[]; dimensions?: number }, call: CallContext) {
    const result = await this.providers.for(call, request.model).embeddings.embed(request, call);
    await this.charge(call, request.model, result.usage.inputTokens);
    return result;
  }

  /** The documents' relevance to the query, best first (at most `topN`), charged to the caller by the provider's usage. */
  async rerank(request: { model: string; query: string; documents: readonly string[]; topN?: number }, call: CallContext) {
    const result = await this.providers.for(call, request.model).rerank.rerank(request, call);
    await this.charge(call, request.model, result.usage.inputTokens);
    return result;
  }

  /** Charges by the input tokens; resolves once the charge is committed (with the turn's other bookkeeping). */
  private async charge(call: CallContext, model: string, inputTokens: number): Promise<void> {
    await this.billing.chargeCommitted(call.principal, { endpoint: call.endpoint, model, inputTokens, outputTokens: 0 });
  }
}
