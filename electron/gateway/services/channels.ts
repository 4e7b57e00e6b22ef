// Relay channels: add, list, update, remove with every field checked, keys in the secret store; also the ChannelDirectory relay routing reads (its pick, keys and health in modules of their own).
import { isServiceKind, secretHint, VOLCENGINE_DEFAULTS, type ChannelInput, type ChannelSummary } from '../../../shared/channels.ts';
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
import { ChannelHealth, clipError } from './channel-health.ts';
import { ChannelKeys, channelSecretName } from './channel-keys.ts';
import { servingInOrder } from './channel-order.ts';
import { channelsWithKeys, type PickNotes } from './channel-pick.ts';
import { ServingModels } from './serving-models.ts';
import { storedModels, upstreamModelOf, type ModelEntry } from './channel-models.ts';
import { channelSettings } from './channel-settings.ts';
import { channelSummary } from './channel-summary.ts';
import { useSecretStore } from './secret-access.ts';

export { channelSecretName } from './channel-keys.ts';
export { cooldownAfter, SUCCESS_NOTE_RESOLUTION_MS } from './channel-health.ts';

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
  private readonly keys: ChannelKeys;
  private readonly health: ChannelHealth;
  /** What the pick notes on a channel it cannot call (made once). */
  private readonly notes: PickNotes;
  /** The kinds and wires serving each model asked lately, for the channel rows they were worked out from. */
  private readonly serving = new ServingModels();

  constructor(options: ChannelsServiceOptions) {
    this.repo = options.repo;
    this.secrets = options.secrets;
    this.clock = options.clock;
    this.random = options.random ?? Math.random;
    this.keys = new ChannelKeys(options.secrets);
    this.health = new ChannelHealth(options.repo, options.clock, options.writes ?? writeAtOnce, this.keys);
    this.notes = {
      keyless: (rows) => {
        for (const row of rows) this.repo.noteError(row.channel_id, missingKeyMessage(row, this.secrets), this.clock.now());
      },
      storeFailed: (row, error) =>
        this.repo.noteError(row.channel_id, clipError(`the secret store failed: ${error.message}`), this.clock.now()),
    };
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
    const channel = await this.keys.channelOf(row, upstream, this.clock.now());
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
    this.keys.forget(row.channel_id);
    return this.summarize(updated);
  }

  /** Removes a channel and its key; answers the channel as it was. */
  async remove(nameOrId: string): Promise<ChannelSummary> {
    const row = this.require(nameOrId);
    this.repo.remove(row.channel_id);
    this.keys.forget(row.channel_id);
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
    const channel = await this.keys.channelOf(row, upstream, this.clock.now());
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
    return this.serving.of(this.repo.list(), model).free;
  }

  wiresServing(model: string): readonly ChatWire[] {
    return this.serving.of(this.repo.list(), model).wires;
  }

  /**
   * The channels to try for `model` on `kind` channels: the list itself when every key is at hand (the usual call, no
   * promise), else a promise that reads the others from the secret store (see `channelsWithKeys`).
   */
  candidates(model: string, kind: ChannelKind): RelayChannel[] | Promise<RelayChannel[]> {
    const now = this.clock.now();
    const resting = (row: Readonly<ChannelRow>) => this.health.resting(row, model, now);
    return channelsWithKeys(servingInOrder(this.repo.list(), model, kind, resting, this.random), now, this.keys, this.notes);
  }

  record(channelId: string, outcome: ChannelOutcome): void {
    this.health.record(channelId, outcome);
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
