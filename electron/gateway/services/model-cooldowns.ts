// Per-model cooldowns of relay channels, kept in memory: a model an upstream refused (404 model not found, its own 429) rests on that channel while the channel serves its other models.
import { CHANNEL_COOLDOWN } from '../../../shared/channels.ts';

/** Most (channel, model) cooldowns kept at once; past it the one ending soonest is dropped (a `*` channel may see any model name). */
export const MODEL_COOLDOWN_LIMIT = 1024;

/** When each (channel, model) pair may be tried again, and how many model failures it had in a row. */
export class ModelCooldowns {
  private readonly entries = new Map<string, { streak: number; until: number }>();

  /**
   * Notes a failure of `model` on `channelId` at `now`: a `retryAfterMs` the upstream sent is honoured as is (up to
   * CHANNEL_COOLDOWN.maxCooldownMs); without one, a missing model rests CHANNEL_COOLDOWN.firstCooldownMs and a rate limit
   * follows `cooldownFor(streak)`.
   */
  fail(
    channelId: string,
    model: string,
    now: number,
    how: { missing: boolean; retryAfterMs?: number },
    cooldownFor: (streak: number) => number,
  ): void {
    const key = keyOf(channelId, model);
    const streak = (this.entries.get(key)?.streak ?? 0) + 1;
    const wait =
      how.retryAfterMs !== undefined
        ? Math.min(how.retryAfterMs, CHANNEL_COOLDOWN.maxCooldownMs)
        : how.missing
          ? CHANNEL_COOLDOWN.firstCooldownMs
          : cooldownFor(streak);
    this.entries.delete(key);
    this.entries.set(key, { streak, until: now + wait });
    if (this.entries.size > MODEL_COOLDOWN_LIMIT) this.dropOne(now);
  }

  /** A success of `model` on `channelId` ends its cooldown. */
  succeed(channelId: string, model: string): void {
    this.entries.delete(keyOf(channelId, model));
  }

  /** Whether `model` rests on `channelId` at `now`. */
  cooling(channelId: string, model: string, now: number): boolean {
    const entry = this.entries.get(keyOf(channelId, model));
    return entry !== undefined && entry.until > now;
  }

  /** Drops an ended cooldown if there is one, else the one ending soonest. */
  private dropOne(now: number): void {
    let soonest: string | undefined;
    let soonestUntil = Infinity;
    for (const [key, entry] of this.entries) {
      if (entry.until <= now) {
        this.entries.delete(key);
        return;
      }
      if (entry.until < soonestUntil) [soonest, soonestUntil] = [key, entry.until];
    }
    if (soonest !== undefined) this.entries.delete(soonest);
  }
}

function keyOf(channelId: string, model: string): string {
  return `${channelId}\n${model}`;
}
