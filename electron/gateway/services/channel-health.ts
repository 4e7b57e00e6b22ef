// A relayed attempt's mark on its channel: a success noted at most once a second per channel (at the group commit), a failure counted toward the channel's cooldown, or resting one model on it.
import { CHANNEL_COOLDOWN, hideSecret } from '../../../shared/channels.ts';
import type { ChannelOutcome } from '../providers/types.ts';
import type { ChannelRow, ChannelsRepo } from '../storage/channels-repo.ts';
import type { DeferredWrites } from '../storage/group-commit.ts';
import type { Clock } from '../time.ts';
import type { ChannelKeys } from './channel-keys.ts';
import { ModelCooldowns } from './model-cooldowns.ts';

/** How fresh a busy channel's last success and latency are kept (at most one write per channel per this many ms). */
export const SUCCESS_NOTE_RESOLUTION_MS = 1000;

/** Longest error text kept as a channel's last error. */
const ERROR_TEXT_LIMIT = 500;

/** The cooldown after `streak` consecutive failures (0: none yet): see CHANNEL_COOLDOWN. */
export function cooldownAfter(streak: number): number {
  if (streak < CHANNEL_COOLDOWN.failures) return 0;
  return Math.min(CHANNEL_COOLDOWN.firstCooldownMs * 2 ** (streak - CHANNEL_COOLDOWN.failures), CHANNEL_COOLDOWN.maxCooldownMs);
}

/** `text` as kept for a channel's last error: at most ERROR_TEXT_LIMIT characters. */
export function clipError(text: string): string {
  return text.length > ERROR_TEXT_LIMIT ? `${text.slice(0, ERROR_TEXT_LIMIT)}…` : text;
}

/** The health of the channels as relay's attempts leave it: written to their rows, and the models resting on each. */
export class ChannelHealth {
  private readonly repo: ChannelsRepo;
  private readonly clock: Clock;
  private readonly writes: DeferredWrites;
  private readonly keys: ChannelKeys;
  private readonly modelCooldowns = new ModelCooldowns();

  constructor(repo: ChannelsRepo, clock: Clock, writes: DeferredWrites, keys: ChannelKeys) {
    this.repo = repo;
    this.clock = clock;
    this.writes = writes;
    this.keys = keys;
  }

  /** Whether `row` rests at `now`: cooling down after failures, or `model` resting on it. */
  resting(row: Readonly<ChannelRow>, model: string, now: number): boolean {
    return (row.cooldown_until !== null && row.cooldown_until > now) || this.modelCooldowns.cooling(row.channel_id, model, now);
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
      const error = hideSecret(outcome.error, this.keys.lastRead(channelId));
      if (outcome.modelFailure && outcome.model !== undefined) {
        // The upstream refused one model: it rests on this channel, the channel's other models are not touched.
        this.modelCooldowns.fail(channelId, outcome.model, now, outcome.modelFailure, cooldownAfter);
        this.repo.noteError(channelId, clipError(error), now);
        return;
      }
      this.repo.recordFailure(channelId, { latencyMs, error: clipError(error), now }, cooldownAfter);
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
}
