// Which channel kinds and chat wires serve a model, and whether it is a free local one, worked out once per model while the channel rows stay the same (every relayed call asks all three: its bundle and its price).
import { isServiceKind, wiresOfChannel } from '../../../shared/channels.ts';
import type { ChannelApi, ChannelKind, ChatWire } from '../providers/types.ts';
import type { ChannelRow } from '../storage/channels-repo.ts';
import { factsOf } from './channel-facts.ts';
import { storedModels, upstreamModelOf } from './channel-models.ts';

/** Most models whose serving kinds and wires are kept between calls while the channels stay the same; past it the list starts over. */
export const SERVING_MODELS_KEPT = 256;

/** The kinds and chat wires of the enabled channels serving one model, and whether it is free. */
export interface Serving {
  readonly kinds: readonly ChannelKind[];
  readonly wires: readonly ChatWire[];
  /** At least one enabled chat channel serves it, and every one that does has no key and a loopback base URL. */
  readonly free: boolean;
}

/**
 * The kinds and wires serving each model asked lately, for the channel rows they were worked out from: a change of the
 * rows (the repo gives new ones) starts over, and so does the SERVING_MODELS_KEPT-th model (a caller names any model it likes).
 */
export class ServingModels {
  private rows: readonly Readonly<ChannelRow>[] | undefined;
  private readonly byModel = new Map<string, Serving>();

  /** What serves `model` among `rows` (the repo's current list, highest priority first). */
  of(rows: readonly Readonly<ChannelRow>[], model: string): Serving {
    if (rows !== this.rows) {
      this.rows = rows;
      this.byModel.clear();
    }
    let serving = this.byModel.get(model);
    if (serving === undefined) {
      if (this.byModel.size >= SERVING_MODELS_KEPT) this.byModel.clear();
      serving = servingOf(rows, model);
      this.byModel.set(model, serving);
    }
    return serving;
  }
}

/**
 * The kinds of the enabled chat channels among `rows` serving `model`, and the chat wires the enabled ones serving it
 * speak, each once, frozen; the rows come highest priority first, so the first wire is the best channel's. The model is
 * free when at least one enabled chat channel serves it and every one that does is keyless on a loopback base URL.
 */
function servingOf(rows: readonly Readonly<ChannelRow>[], model: string): Serving {
  const kinds: ChannelKind[] = [];
  const wires: ChatWire[] = [];
  let served = false;
  let local = true;
  for (const row of rows) {
    if (row.enabled !== 1 || upstreamModelOf(storedModels(row.models), model) === undefined) continue;
    const kind = row.kind as ChannelKind;
    // Portrait and 3D service channels serve no chat models: relay routing never sees them.
    if (!isServiceKind(kind)) {
      if (!kinds.includes(kind)) kinds.push(kind);
      served = true;
      local &&= row.key_hint === null && factsOf(row).loopback;
    }
    for (const wire of wiresOfChannel(kind, row.api as ChannelApi | null)) if (!wires.includes(wire)) wires.push(wire);
  }
  return Object.freeze({ kinds: Object.freeze(kinds), wires: Object.freeze(wires), free: served && local });
}
