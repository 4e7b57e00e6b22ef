// The model catalogue with relayed models: the channels' named models beside the simulated ones (or alone, when unrouted models are refused).
import type { ChannelDirectory, ChannelKind, ModelCatalogue, ModelInfo } from '../types.ts';

const GEMINI_METHODS: Record<ChannelKind, string[]> = {
  openai: [],
  anthropic: [],
  gemini: ['generateContent', 'streamGenerateContent', 'countTokens'],
};

export class RelayCatalogue implements ModelCatalogue {
  private readonly channels: ChannelDirectory;
  /** The simulated catalogue; null when unrouted models are refused, so only relayed models exist. */
  private readonly simulated: ModelCatalogue | null;
  private readonly created: number;

  /** `created`: the Unix seconds shown as the relayed models' creation. */
  constructor(channels: ChannelDirectory, simulated: ModelCatalogue | null, created: number) {
    this.channels = channels;
    this.simulated = simulated;
    this.created = created;
  }

  async list(call: Parameters<ModelCatalogue['list']>[0]): Promise<ModelInfo[]> {
    const relayed = this.relayed();
    const names = new Set(relayed.map((model) => model.id));
    const simulated = this.simulated ? await this.simulated.list(call) : [];
    return [...relayed, ...simulated.filter((model) => !names.has(model.id))];
  }

  async describe(id: string, call: Parameters<ModelCatalogue['describe']>[1]): Promise<ModelInfo | undefined> {
    return this.relayed().find((model) => model.id === id) ?? this.simulated?.describe(id, call);
  }

  /** One entry per relayed model name (the first channel listed names it). */
  private relayed(): ModelInfo[] {
    const byName = new Map<string, ModelInfo>();
    for (const { model, channel, kind } of this.channels.listedModels()) {
      if (byName.has(model)) continue;
      byName.set(model, {
        id: model,
        displayName: model,
        capability: `relayed to the ${kind} channel ${channel}`,
        geminiMethods: GEMINI_METHODS[kind],
        created: this.created,
      });
    }
    return [...byName.values()];
  }
}
