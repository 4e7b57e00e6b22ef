// The simulated model catalogue: the built-in simulated models plus the configured aliases; any other name is served as a chat model.
import type { ModelCatalogue, ModelInfo } from '../../types.ts';
import { SIM_MODELS, SIM_MODELS_CREATED } from '../models.ts';

export class SimulatedModels implements ModelCatalogue {
  private readonly models: ModelInfo[];

  constructor(aliases: Readonly<Record<string, string>>) {
    const builtIn = SIM_MODELS.map((model) => ({ ...model, created: SIM_MODELS_CREATED }));
    const extra = Object.entries(aliases).map(([alias, target]) => {
      const base = builtIn.find((model) => model.id === target) ?? builtIn[0]!;
      return { ...base, id: alias, displayName: `${alias} (alias of ${target})` };
    });
    this.models = [...builtIn, ...extra];
  }

  async list(): Promise<ModelInfo[]> {
    return this.models;
  }

  /** Any name is served in simulate mode; unknown names are described as chat models. */
  async describe(id: string): Promise<ModelInfo> {
    return this.models.find((model) => model.id === id) ?? { ...this.models[0]!, id, displayName: id };
  }
}
