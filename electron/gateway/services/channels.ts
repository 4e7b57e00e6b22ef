// Relay channels: add, list, update, remove with every field checked, keys in the secret store; also the ChannelDirectory relay routing reads (health and cooldown included).
import {
  CHANNEL_COOLDOWN,
  hideSecret,
  isServiceKind,
  secretHint,
  VOLCENGINE_DEFAULTS,
  type ChannelInput,
  type ChannelSummary,
} from '../../../shared/channels.ts';
import { publicId } from '../ids.ts';
import { GatewayError, invalid, notFound, UpstreamError } from '../errors.ts';
import type {
  ChannelDirectory,
  ChannelKind,
  ChannelOutcome,
  ChatWire,
  RelayChannel,
  ServiceChannel,
  ServiceChannelDirectory,
} from '../providers/types.ts';
import { keepsNothingWhy, type SecretStore } from '../secrets/secret-store.ts';
import type { ChannelRow, ChannelsRepo } from '../storage/channels-repo.ts';
import { writeAtOnce, type DeferredWrites } from '../storage/group-commit.ts';
import type { Clock } from '../time.ts';
import { checkKey, checkServiceKey } from './channel-input.ts';
import { factsOf, relayChannelFrom } from './channel-facts.ts';
import { servingInOrder, type Serving } from './channel-order.ts';
import { ServingModels } from './serving-models.ts';
import { storedModels, upstreamModelOf, type ModelEntry } from './channel-models.ts';
import { channelSettings } from './channel-settings.ts';
import { channelSummary } from './channel-summary.ts';
import { ModelCooldowns } from './model-cooldowns.ts';
import { useSecretStore } from './secret-access.ts';

/** How fresh a busy channel's last success and latency are kept (at most one write per channel per this many ms). */
export const SUCCESS_NOTE_RESOLUTION_MS = 1000;

/** The secret store entry of a channel's key (token secrets are `token:…`, so the two never collide). */
export const channelSecretName = (channelId: string): string => `channel:${channelId}`;

/** How long a key read from the secret store is reused (a change of the channel's revision drops it at once). */
const KEY_CACHE_MS = 10_000;
/** Longest error text kept as a channel's last error. */
const ERROR_TEXT_LIMIT = 500;

/** The cooldown after `streak` consecutive failures (0: none yet): see CHANNEL_COOLDOWN. */
export function cooldownAfter(streak: number): number {
  if (streak < CHANNEL_COOLDOWN.failures) return 0;
  return Math.min(CHANNEL_COOLDOWN.firstCooldownMs * 2 ** (streak - CHANNEL_COOLDOWN.failures), CHANNEL_COOLDOWN.maxCooldownMs);
}

export interface ChannelsServiceOptions {
  repo: ChannelsRepo;
  secrets: SecretStore;
  clock: Clock;
  /** A number in [0, 1) for the weighted order within a priority (tests pass a fixed sequence). */
  random?: () => number;
  /**
   * How health writes are committed: absent, at once; the gateway passes its GroupCommit, so the successes of one
   * event-loop turn share one transaction (a failure, which reads the streak back, first commits what is queued).
   */
  writes?: DeferredWrites;
}

/** The configured channels, kept between changes (see ChannelsRepo.list), so a change by the CLI or the console applies to the next request. */
export class ChannelsService implements ChannelDirectory, ServiceChannelDirectory {
  private readonly repo: ChannelsRepo;
  private readonly secrets: SecretStore;
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly keys = new Map<string, { revision: number; key: string | null; readAt: number }>();
  private readonly writes: DeferredWrites;
  private readonly modelCooldowns = new ModelCooldowns();
  /** The kinds and wires serving each model asked lately, for the channel rows they were worked out from. */
  private readonly serving = new ServingModels();

  constructor(options: ChannelsServiceOptions) {
    this.repo = options.repo;
    this.secrets = options.secrets;
    this.clock = options.clock;
    this.random = options.random ?? Math.random;
    this.writes = options.writes ?? writeAtOnce;
  }

  /** Where keys are kept, as the user is told. */
  get secretStore(): Pick<SecretStore, 'kind' | 'description' | 'cause'> {
    return this.secrets;
  }

  /** Adds a channel (`name`, `kind`, `base_url` required, but for volcengine); its key, if any, goes to the secret store only. */
  async add(given: ChannelInput): Promise<ChannelSummary> {
    // A volcengine channel without a base URL goes to Volcengine's OpenAPI endpoint.
    const input =
      given.kind === 'volcengine' && (given.base_url ?? '').trim() === '' ? { ...given, base_url: VOLCENGINE_DEFAULTS.baseUrl } : given;
    for (const field of ['name', 'kind', 'base_url'] as const) {
      if (input[field] === undefined || input[field].trim() === '') throw invalid(`${field} is required`, field);
    }
    const settings = channelSettings(input);
    const key = typeof input.key === 'string' ? checkServiceKey(settings.kind, checkKey(input.key)) : null;
    this.assertNameFree(settings.name);
    if (key !== null) this.assertKeysKept(settings.name);
    const channelId = publicId('ch');
    if (key !== null) await useSecretStore(this.secrets, (store) => store.set(channelSecretName(channelId), key));
    try {
      return this.summarize(
        this.repo.insert(channelId, { ...settings, key_hint: key === null ? null : secretHint(key) }, this.clock.now()),
      );
    } catch (error) {
      if (key !== null) await this.secrets.delete(channelSecretName(channelId)).catch(() => false);
      throw error;
    }
  }

  /** Every channel, highest priority first. */
  list(): ChannelSummary[] {
    const reviewerId = this.enabledServiceChannels()[0]?.id;
    return this.repo.list().map((row) => this.summarize(row, reviewerId));
  }

  enabledServiceChannels(filter: { kind?: 'platform' | 'volcengine'; model?: string } = {}) {
    return this.repo
      .list()
      .filter((row) => row.enabled === 1 && isServiceKind(row.kind) && (filter.kind === undefined || row.kind === filter.kind))
      .filter((row) => filter.model === undefined || upstreamModelOf(storedModels(row.models), filter.model) !== undefined)
      .map((row) => ({ id: row.channel_id, name: row.name, kind: row.kind as 'platform' | 'volcengine' }));
  }

  async serviceChannel(id: string, model?: string): Promise<ServiceChannel | undefined> {
    const row = this.repo.findById(id);
    if (!row || !isServiceKind(row.kind)) return undefined;
    const upstream = model === undefined ? '' : (upstreamModelOf(storedModels(row.models), model) ?? model);
    const channel = await this.relayChannelOf(row, upstream);
    if (!channel) throw new UpstreamError(missingKeyMessage(row, this.secrets));
    return {
      id: channel.id,
      name: channel.name,
      kind: row.kind as 'platform' | 'volcengine',
      baseUrl: channel.baseUrl,
      timeoutMs: channel.timeoutMs,
      idleTimeoutMs: channel.idleTimeoutMs,
      deadlineMs: channel.deadlineMs,
      headers: channel.headers,
      key: channel.key,
      region: row.region ?? VOLCENGINE_DEFAULTS.region,
      project: row.project ?? VOLCENGINE_DEFAULTS.project,
      upstreamModel: upstream,
    };
  }

  /** A channel by id or name (names ignore case). */
  find(nameOrId: string): ChannelSummary | undefined {
    const row = this.rowOf(nameOrId);
    return row && this.summarize(row);
  }

  /** Changes the given fields; `key` set to a string replaces the key, null removes it, absent keeps it. */
  async update(nameOrId: string, input: ChannelInput): Promise<ChannelSummary> {
    const row = this.require(nameOrId);
    const settings = channelSettings(input, row);
    if (settings.name.toLowerCase() !== row.name.toLowerCase()) this.assertNameFree(settings.name);
    let keyHint = row.key_hint;
    if (typeof input.key === 'string') {
      const key = checkServiceKey(settings.kind, checkKey(input.key));
      this.assertKeysKept(settings.name);
      await useSecretStore(this.secrets, (store) => store.set(channelSecretName(row.channel_id), key));
      keyHint = secretHint(key);
    } else if (input.key === null && row.key_hint !== null) {
      await useSecretStore(this.secrets, (store) => store.delete(channelSecretName(row.channel_id)));
      keyHint = null;
    }
    const updated = this.repo.update(row.channel_id, { ...settings, key_hint: keyHint }, this.clock.now());
    if (!updated) throw notFound(`No channel named "${nameOrId}"`, 'name');
    this.keys.delete(row.channel_id);
    return this.summarize(updated);
  }

  /** Removes a channel and its key; answers the channel as it was. */
  async remove(nameOrId: string): Promise<ChannelSummary> {
    const row = this.require(nameOrId);
    this.repo.remove(row.channel_id);
    this.keys.delete(row.channel_id);
    // The channel is gone either way; a key the store fails to delete opens nothing of ours any more.
    if (row.key_hint !== null) await this.secrets.delete(channelSecretName(row.channel_id)).catch(() => false);
    return this.summarize(row);
  }

  /**
   * The channel as relay would use it for `model` (enabled or not, cooling down or not), key included: what a test
   * call sends. Without a model, the upstream model is null.
   */
  async target(nameOrId: string, model?: string): Promise<{ channel: RelayChannel; models: readonly ModelEntry[] }> {
    const row = this.require(nameOrId);
    const models = storedModels(row.models);
    const upstream = model === undefined ? '' : (upstreamModelOf(models, model) ?? model);
    const channel = await this.relayChannelOf(row, upstream);
    if (!channel) throw new GatewayError('unavailable', missingKeyMessage(row, this.secrets));
    return { channel, models };
  }

  kindsServing(model: string): readonly ChannelKind[] {
    return this.serving.of(this.repo.list(), model).kinds;
  }

  /**
   * Whether `model` is a free local model: at least one enabled chat channel serves it, and every one that does has no
   * key and a loopback base URL (a local Ollama or LM Studio). Such a model is priced 0 unless the owner priced it.
   */
  freeModel(model: string): boolean {
    let served = false;
    for (const row of this.repo.list()) {
      if (row.enabled !== 1 || isServiceKind(row.kind) || upstreamModelOf(storedModels(row.models), model) === undefined) continue;
      if (row.key_hint !== null || !factsOf(row).loopback) return false;
      served = true;
    }
    return served;
  }

  wiresServing(model: string): readonly ChatWire[] {
    return this.serving.of(this.repo.list(), model).wires;
  }

  candidatesAtHand(model: string, kind: ChannelKind): RelayChannel[] | undefined {
    const now = this.clock.now();
    const serving = this.servingNow(model, kind, now);
    const channels: RelayChannel[] = [];
    const keyless: Readonly<ChannelRow>[] = [];
    // A key to read from the store: `candidates` reads it (nothing is noted here, so nothing twice).
    if (this.keptChannels(serving, 0, now, channels, keyless) < serving.length) return undefined;
    this.noteKeyless(keyless);
    return channels;
  }

  async candidates(model: string, kind: ChannelKind): Promise<RelayChannel[]> {
    const now = this.clock.now();
    const serving = this.servingNow(model, kind, now);
    const channels: RelayChannel[] = [];
    const keyless: Readonly<ChannelRow>[] = [];
    // The keys read from the store a moment ago are used as they are (no await per call); the others are read here.
    for (let index = 0; index < serving.length; index++) {
      index = this.keptChannels(serving, index, now, channels, keyless);
      if (index === serving.length) break;
      const { row, upstream } = serving[index]!;
      let channel: RelayChannel | null;
      try {
        channel = await this.readRelayChannel(row, upstream, now);
      } catch (error) {
        this.repo.noteError(row.channel_id, clip(`the secret store failed: ${(error as Error).message}`), this.clock.now());
        continue;
      }
      if (channel) channels.push(channel);
      else keyless.push(row);
    }
    this.noteKeyless(keyless);
    return channels;
  }

  /**
   * Pushes the channels of `serving` from `from` on whose keys are at hand onto `channels` in order (the rows that have no
   * key onto `keyless`), up to the first whose key must be read from the store: returns its index (the list's length when
   * there is none).
   */
  private keptChannels(
    serving: readonly Serving[],
    from: number,
    now: number,
    channels: RelayChannel[],
    keyless: Readonly<ChannelRow>[],
  ): number {
    for (let index = from; index < serving.length; index++) {
      const { row, upstream } = serving[index]!;
      const channel = this.keptRelayChannel(row, upstream, now);
      if (channel === undefined) return index;
      if (channel) channels.push(channel);
      else keyless.push(row);
    }
    return serving.length;
  }

  /** Notes on each channel of `rows` that it has no key to call with. */
  private noteKeyless(rows: readonly Readonly<ChannelRow>[]): void {
    for (const row of rows) this.repo.noteError(row.channel_id, missingKeyMessage(row, this.secrets), this.clock.now());
  }

  /** The rows serving `model` on `kind` channels at `now`, in the order to try (see `servingInOrder`). */
  private servingNow(model: string, kind: ChannelKind, now: number): Serving[] {
    const resting = (row: Readonly<ChannelRow>) =>
      (row.cooldown_until !== null && row.cooldown_until > now) || this.modelCooldowns.cooling(row.channel_id, model, now);
    return servingInOrder(this.repo.list(), model, kind, resting, this.random);
  }

  record(channelId: string, outcome: ChannelOutcome): void {
    const now = this.clock.now();
    const latencyMs = Math.max(0, Math.round(outcome.latencyMs));
    if (outcome.ok) {
      if (outcome.model !== undefined) this.modelCooldowns.succeed(channelId, outcome.model);
      // Decided where it is written: at the group commit, inside its transaction, where the rows are read without a
      // lock of their own (checking here cost every relayed call a data_version read in the turn of its answer).
      this.writes.defer(() => {
        if (this.successWorthNoting(channelId, now)) this.repo.recordSuccess(channelId, latencyMs, now);
      });
    } else {
      this.writes.flush();
      // An upstream may echo the credential in its error: the text kept never holds a key this process has read.
      const key = this.keys.get(channelId)?.key;
      const error = hideSecret(outcome.error, key ?? null);
      if (outcome.modelFailure && outcome.model !== undefined) {
        // The upstream refused one model: it rests on this channel, the channel's other models are not touched.
        this.modelCooldowns.fail(channelId, outcome.model, now, outcome.modelFailure, cooldownAfter);
        this.repo.noteError(channelId, clip(error), now);
        return;
      }
      this.repo.recordFailure(channelId, { latencyMs, error: clip(error), now }, cooldownAfter);
    }
  }

  /**
   * A success is written when it changes the channel's health (a failure streak or a cooldown ends) or the last
   * one noted is older than SUCCESS_NOTE_RESOLUTION_MS: a busy channel's last success and latency stay that fresh
   * without a write per call.
   */
  private successWorthNoting(channelId: string, now: number): boolean {
    const row = this.repo.list().find((candidate) => candidate.channel_id === channelId);
    if (!row || row.consecutive_failures !== 0 || row.cooldown_until !== null || row.last_ok_at === null) return true;
    return now < row.last_ok_at || now - row.last_ok_at >= SUCCESS_NOTE_RESOLUTION_MS;
  }

  listedModels(): { model: string; channel: string; kind: ChannelKind }[] {
    return this.repo
      .list()
      .filter((row) => row.enabled === 1 && !isServiceKind(row.kind))
      .flatMap((row) =>
        storedModels(row.models)
          .filter((entry) => entry.local !== '*')
          .map((entry) => ({ model: entry.local, channel: row.name, kind: row.kind as ChannelKind })),
      );
  }

  /** The channel for relay, its key read from the store (briefly cached per revision); undefined when its key is missing. */
  private async relayChannelOf(row: Readonly<ChannelRow>, upstreamModel: string): Promise<RelayChannel | undefined> {
    const now = this.clock.now();
    const kept = this.keptRelayChannel(row, upstreamModel, now);
    const channel = kept === undefined ? await this.readRelayChannel(row, upstreamModel, now) : kept;
    return channel ?? undefined;
  }

  /** The channel for relay with its key read from the store now (and kept for KEY_CACHE_MS); null when the store lacks it. */
  private async readRelayChannel(row: Readonly<ChannelRow>, upstreamModel: string, now: number): Promise<RelayChannel | null> {
    const key = await this.secrets.get(channelSecretName(row.channel_id));
    this.keys.set(row.channel_id, { revision: row.revision, key, readAt: now });
    return key === null ? null : relayChannelFrom(row, upstreamModel, key);
  }

  /**
   * The channel for relay when its key needs no read of the store (it has none, or one read within KEY_CACHE_MS for its
   * revision); null when the store was found without its key; undefined when the store must be asked.
   */
  private keptRelayChannel(row: Readonly<ChannelRow>, upstreamModel: string, now: number): RelayChannel | null | undefined {
    if (row.key_hint === null) return relayChannelFrom(row, upstreamModel, null);
    const cached = this.keys.get(row.channel_id);
    if (!cached || cached.revision !== row.revision || now - cached.readAt >= KEY_CACHE_MS) return undefined;
    return cached.key === null ? null : relayChannelFrom(row, upstreamModel, cached.key);
  }

  private assertNameFree(name: string): void {
    if (this.repo.findByName(name)) throw invalid(`name: a channel named "${name}" already exists`, 'name');
  }

  /** A key needs a store that keeps it: a store of kind `none` keeps nothing (the message names why: the flag, or no keychain found). */
  private assertKeysKept(name: string): void {
    if (this.secrets.kind === 'none')
      throw invalid(
        `channel "${name}" has a key, but this gateway keeps no secrets, because ${keepsNothingWhy(this.secrets)}: choose "a locked file in the data dir" under Secret store on the Settings page, or use --secrets keychain (the OS keychain) or --secrets file (a 0600 file in the data dir)`,
        'key',
      );
  }

  private rowOf(nameOrId: string): ChannelRow | undefined {
    return this.repo.findById(nameOrId) ?? this.repo.findByName(nameOrId);
  }

  private require(nameOrId: string): ChannelRow {
    const row = this.rowOf(nameOrId);
    if (!row) throw notFound(`No channel named "${nameOrId.slice(0, 80)}"`, 'name');
    return row;
  }

  /** The channel as listed; `reviewerId`: the current reviewer channel (read when not given). */
  private summarize(row: ChannelRow, reviewerId = this.enabledServiceChannels()[0]?.id): ChannelSummary {
    return channelSummary(row, reviewerId === row.channel_id, this.clock.now());
  }
}

function missingKeyMessage(row: ChannelRow, secrets: SecretStore): string {
  return secrets.kind === 'none'
    ? `channel "${row.name}" has a key, but this gateway keeps no secrets, because ${keepsNothingWhy(secrets)}: choose "a locked file in the data dir" under Secret store on the Settings page, or start it with --secrets file or --secrets keychain`
    : `the key of channel "${row.name}" is not in the secret store (${secrets.description}): set it again with gatehouse channel update ${row.name} --key-stdin`;
}

function clip(text: string): string {
  return text.length > ERROR_TEXT_LIMIT ? `${text.slice(0, ERROR_TEXT_LIMIT)}…` : text;
}
