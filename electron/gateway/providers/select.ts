// Chooses the provider bundle of each call. Relay does not exist yet, so today every call is answered by the simulator.
import type { CallContext, ProviderBundle, ProviderSelector } from './types.ts';

export class ProviderChoice implements ProviderSelector {
  private readonly simulate: ProviderBundle;
  constructor(simulate: ProviderBundle) {
    this.simulate = simulate;
  }

  /** The bundle that answers `call` (for `model`); background work passes no call. */
  for(_call?: CallContext, _model?: string): ProviderBundle {
    return this.simulate;
  }
}
