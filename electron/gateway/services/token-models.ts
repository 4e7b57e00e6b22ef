// Enforces a token's model limit at the provider seam, where every call that names a model passes.
import { GatewayError } from '../errors.ts';
import type { ProviderSelector } from '../providers/types.ts';

/** The refusal of a model the caller's token may not use, naming what it may use. */
export function modelRefusal(model: string, allowed: readonly string[]): GatewayError {
  const shown = model.length > 200 ? `${model.slice(0, 200)}…` : model;
  const list = allowed.length === 0 ? 'none' : allowed.join(', ');
  return new GatewayError('forbidden', `This API token may not use the model "${shown}"; it is limited to: ${list}`, 'model');
}

/**
 * `selector`, refusing (403 in the caller's protocol) a call whose token is limited to some models when it names
 * another. Calls without a model (model lists, portrait) and background work (no call) pass.
 */
export function limitToTokenModels(selector: ProviderSelector): ProviderSelector {
  return {
    for(call, model) {
      const allowed = call?.principal.models;
      if (allowed && model !== undefined && !allowed.includes(model)) throw modelRefusal(model, allowed);
      return selector.for(call, model);
    },
  };
}
