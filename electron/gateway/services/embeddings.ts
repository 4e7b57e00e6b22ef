// Embeddings calls: the provider of the call makes the vectors, and the call is billed by the tokens the provider counted.
import type { CallContext, EmbeddingInput, ProviderSelector } from '../providers/types.ts';
import type { BillingService } from './billing.ts';

export class EmbeddingsService {
  private readonly providers: ProviderSelector;
  private readonly billing: BillingService;
  constructor(providers: ProviderSelector, billing: BillingService) {
    this.providers = providers;
    this.billing = billing;
  }

  /** One vector per input, in order, charged to the caller by the provider's usage. */
  async embed(request: { model: string; inputs: readonly EmbeddingInput[]; dimensions?: number }, call: CallContext) {
    const result = await this.providers.for(call, request.model).embeddings.embed(request, call);
    this.billing.charge(call.principal, {
      endpoint: call.endpoint,
      model: request.model,
      inputTokens: result.usage.inputTokens,
      outputTokens: 0,
    });
    return result;
  }
}
