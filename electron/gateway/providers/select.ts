// Chooses the provider bundle of each call: relay when channels of the caller's kind serve its model, translated chat when only other kinds do (other endpoints refuse), else the simulator (or a "not found" naming the served models, see --unrouted).
import { GatewayError } from '../errors.ts';
import { FixtureChoice } from './fixtures/choice.ts';
import { ScriptedWork } from './fixtures/scripted-work.ts';
import { recordingSimulator, WorkCassettes, type WorkTapes } from './replay/work-choice.ts';
import type { FixtureStore } from './fixtures/store.ts';
import { ReplayChoice } from './replay/choice.ts';
import type { Playback } from './replay/playback.ts';
import type { StoreShelf } from './replay/shelf.ts';
import { RelayCatalogue } from './relay/catalogue.ts';
import { relayBundle } from './relay/index.ts';
import { kindOfProtocol } from './relay/kinds.ts';
import { refusingBundle } from './relay/refusing.ts';
import { isSimulatorModel } from './simulator-models.ts';
import { translatingBundle } from './relay/translate/bundle.ts';
import { translatedRealtimeBundle } from './relay/translate/realtime.ts';
import { translatedEmbeddings } from './relay/translate/embeddings.ts';
import { wireOfCall } from './relay/wires.ts';
import type {
  CallContext,
  CassetteDeck,
  ChannelDirectory,
  ChannelKind,
  ChatWire,
  ModelCatalogue,
  ProviderBundle,
  ProviderSelector,
} from './types.ts';

import type { ReplayMiss } from '../../../shared/cassette.ts';
import type { UnroutedPolicy } from '../../../shared/settings.ts';
import { systemClock, type Clock } from '../time.ts';

/** What happens to a model no channel serves (a saved setting too, so its values live in shared/settings.ts). */
export { UNROUTED_POLICIES, type UnroutedPolicy } from '../../../shared/settings.ts';

/** Most served model names a "model not found" lists. */
export const SERVED_NAMES_SHOWN = 20;

/**
 * Most relay bundles kept for reuse, one per (model, channel kind, chat wire) called: a bundle holds no state of a call
 * or of the channels (it asks the directory at each call), so a model's calls share one instead of building it each
 * time. Past the limit (a `*` channel may see any model name) the kept ones are dropped and built again as called.
 */
export const RELAY_BUNDLES_KEPT = 256;

export interface RoutingOptions {
  /** The configured channels; absent: every call is simulated. */
  channels?: ChannelDirectory;
  /** Default `auto`: refused while a channel is enabled, else simulated. */
  unrouted?: UnroutedPolicy;
  /** Unix seconds shown as the relayed models' creation time. */
  created?: number;
  /** Scripted answers, asked before anything else; absent: none. */
  fixtures?: FixtureStore;
  /** `--strict`: a call no fixture matches is refused (a request's `x-gatehouse-strict` header overrides it). */
  strict?: boolean;
  /** The gateway's clock, on which scripted portrait reviews and 3D tasks run (default the system clock). */
  clock?: Clock;
  /** `--replay`: cassettes asked after fixtures and before relay; a miss does what `miss` says. */
  replay?: { shelf: StoreShelf; miss: ReplayMiss; playback: Playback };
  /** `--record` and `--replay`: realtime sessions, portrait registrations and 3D tasks recorded and replayed; absent: neither. */
  cassettes?: CassetteDeck;
  /** Under `--record-simulated`: the recorders the simulator's reviewer and 3D upstream are wrapped with. */
  tapes?: WorkTapes;
}

export class ProviderChoice implements ProviderSelector {
  private readonly channels: ChannelDirectory | undefined;
  private readonly unrouted: UnroutedPolicy;
  /** The simulate bundle with the relayed models in its catalogue (the bundle of calls that name no model). */
  private readonly general: ProviderBundle;
  private readonly catalogue: ModelCatalogue;
  private readonly fixtures: FixtureChoice | undefined;
  private readonly replay: ReplayChoice | undefined;
  private readonly work: WorkCassettes | undefined;
  /** The relay bundles built so far, by kind, wire and model (see RELAY_BUNDLES_KEPT). */
  private readonly relayBundles = new Map<string, ProviderBundle>();

  constructor(simulate: ProviderBundle, options: RoutingOptions = {}) {
    this.channels = options.channels;
    this.unrouted = options.unrouted ?? 'auto';
    const created = options.created ?? 0;
    this.catalogue = this.channels
      ? new RelayCatalogue(this.channels, this.unrouted === 'reject' ? null : simulate.models, created)
      : simulate.models;
    const deck = options.cassettes;
    const recorded = deck ? recordingSimulator(simulate, deck, options.tapes) : simulate;
    const general = this.channels ? { ...recorded, models: this.catalogue } : recorded;
    // Scripted (and replayed) assets and tasks are checked later through the general bundle (the background scan has no call).
    const work = (options.fixtures || deck) && new ScriptedWork(options.clock ?? systemClock);
    this.general = work ? work.wrap(general) : general;
    this.fixtures = options.fixtures && work && new FixtureChoice(options.fixtures, options.strict ?? false, work);
    this.replay = options.replay && new ReplayChoice(options.replay.shelf, options.replay.miss, options.replay.playback);
    this.work = deck && work && new WorkCassettes(deck, work, options.clock ?? systemClock, options.replay?.playback);
  }

  /**
   * The bundle that answers `call` for `model`, asking in order: fixtures, cassettes (`--replay`), relay channels, the simulator. Background work
   * and calls naming no model get the simulator (with every model listed); a portrait call (which names none) asks fixtures first.
   */
  for(call?: CallContext, model?: string): ProviderBundle {
    if (!call || (model === undefined && call.protocol !== 'portrait')) return this.general;
    const scripted = this.fixtures?.decide(call, model ?? '', this.general);
    if (scripted)
      return 'answer' in scripted
        ? scripted.answer
        : { ...refusingBundle(() => scripted.refuse, this.catalogue), fixture: { refused: true } };
    // Realtime sessions, portrait registrations (which name no model) and 3D tasks have cassettes of their own kinds.
    const worked = this.work?.replay(call, model ?? '', this.general);
    if (worked)
      return 'answer' in worked ? worked.answer : { ...refusingBundle(() => worked.refuse, this.catalogue), fixture: { refused: true } };
    if (model === undefined) return this.general;
    const replayed = this.replay?.decide(call, model, this.general);
    if (replayed) {
      if ('answer' in replayed) return replayed.answer;
      if ('simulate' in replayed) return this.general;
      return refusingBundle(() => replayed.refuse, this.catalogue);
    }
    const routed = this.work ? this.work.record(this.routed(call, model), call, model) : this.routed(call, model);
    // A realtime session is one call of many answers: fixtures are asked at each of its responses.
    return this.fixtures && call.protocol === 'realtime' ? this.fixtures.session(call, model, routed) : routed;
  }

  /** The bundle of a call no fixture answers: relay, translation, a refusal, or the simulator. */
  private routed(call: CallContext, model: string): ProviderBundle {
    const channels = this.channels;
    const kinds = channels?.kindsServing(model) ?? [];
    if (!channels || kinds.length === 0) return this.unroutedBundle(model);
    const wire = wireOfCall(call);
    if (wire) {
      // Chat: pass-through to the channels speaking the caller's wire, else translation to the others.
      const kind = kindOfProtocol(call.protocol)!;
      if (channels.wiresServing(model).includes(wire)) return this.relayBundleOf(channels, model, kind, wire);
      return translatingBundle(channels, model, kinds, this.catalogue);
    }
    const kind = kindOfProtocol(call.protocol);
    if (kind && kinds.includes(kind)) return this.relayBundleOf(channels, model, kind);
    const served = [...new Set(kinds)].join(' and ');
    // A realtime session for a model no OpenAI channel serves runs here, its text turns translated to the other kinds' chat.
    if (call.protocol === 'realtime') return translatedRealtimeBundle(channels, model, kinds, this.catalogue);
    const refusing = refusingBundle(
      () =>
        new GatewayError(
          'invalid_request',
          `Model '${model}' is served only by ${served} channels, which this API does not reach yet (no translation between protocols); call it with the ${served} API.`,
          'model',
        ),
      this.catalogue,
    );
    // Embeddings translate between OpenAI and Gemini (an OpenAI or Gemini caller, a model the other kind serves).
    const embeddings = (kind === 'openai' || kind === 'gemini') && translatedEmbeddings(channels, model, kinds);
    return embeddings ? { ...refusing, embeddings } : refusing;
  }

  /** The relay bundle of `model` over the `kind` channels (speaking `wire`), built once and kept (see RELAY_BUNDLES_KEPT). */
  private relayBundleOf(channels: ChannelDirectory, model: string, kind: ChannelKind, wire?: ChatWire): ProviderBundle {
    const key = `${kind} ${wire ?? ''} ${model}`;
    let bundle = this.relayBundles.get(key);
    if (bundle === undefined) {
      if (this.relayBundles.size >= RELAY_BUNDLES_KEPT) this.relayBundles.clear();
      bundle = relayBundle(channels, model, kind, this.catalogue, wire);
      this.relayBundles.set(key, bundle);
    }
    return bundle;
  }

  /**
   * A model no enabled channel serves: the simulator under `simulate`, and under `auto` while no channel is enabled or
   * for a simulator model (`sim-*`, a test value); else every capability answers the protocol's "model not found"
   * naming the served models (a typo is not answered as if it were real), only the catalogue answers.
   */
  private unroutedBundle(model: string): ProviderBundle {
    if (this.unrouted === 'simulate' || (this.unrouted === 'auto' && isSimulatorModel(model))) return this.general;
    const listed = this.channels?.listedModels() ?? [];
    if (this.unrouted === 'auto' && listed.length === 0) return this.general;
    const served = [...new Set(listed.map((entry) => entry.model))];
    const shown =
      served.slice(0, SERVED_NAMES_SHOWN).join(', ') + (served.length > SERVED_NAMES_SHOWN ? `, … (${served.length} in all)` : '');
    const message = `The model '${model}' does not exist` + (served.length > 0 ? `; the channels serve: ${shown}` : '');
    return refusingBundle(() => new GatewayError('not_found', message, 'model', undefined, { code: 'model_not_found' }), this.catalogue);
  }
}
