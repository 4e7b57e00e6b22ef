// Repository of relay channels: their settings and health columns (the key itself lives in the secret store, only its hint here).
import type { Db } from './database.ts';
import { ReadCache } from './read-cache.ts';

/** A stored channel. `headers` is a JSON object; `enabled` is 0 or 1. */
export interface ChannelRow {
  id: number;
  channel_id: string;
  name: string;
  kind: string;
  base_url: string;
  models: string;
  priority: number;
  weight: number;
  timeout_ms: number;
  idle_timeout_ms: number;
  deadline_ms: number;
  /** `openai` channels: `chat` or `responses`; null for other kinds. */
  api: string | null;
  /** `openai` channels: `openai` or `compatible`, null to choose from the base URL (and for other kinds). */
  compat: string | null;
  headers: string;
  enabled: number;
  key_hint: string | null;
  /** Goes up on every change, so a cached key of an older revision is never used. */
  revision: number;
  created_at: number;
  updated_at: number;
  consecutive_failures: number;
  cooldown_until: number | null;
  last_error: string | null;
  last_error_at: number | null;
  last_latency_ms: number | null;
  last_ok_at: number | null;
  /** `volcengine`: the region and project name; null for other kinds. */
  region: string | null;
  project: string | null;
}

/** The settings of a channel, as written by add and update. */
export type ChannelSettings = Pick<
  ChannelRow,
  | 'name'
  | 'kind'
  | 'base_url'
  | 'models'
  | 'priority'
  | 'weight'
  | 'timeout_ms'
  | 'idle_timeout_ms'
  | 'deadline_ms'
  | 'api'
  | 'compat'
  | 'headers'
  | 'enabled'
  | 'key_hint'
  | 'region'
  | 'project'
>;

export class ChannelsRepo {
  private readonly db: Db;
  /** The channels, read again only after a change (every call routes through them). */
  private readonly all: ReadCache<readonly Readonly<ChannelRow>[]>;
  constructor(db: Db) {
    this.db = db;
    this.all = new ReadCache(db, 'channels', () =>
      Object.freeze(
        (this.db.prepare('SELECT * FROM channels ORDER BY priority DESC, id').all() as ChannelRow[]).map((row) => Object.freeze(row)),
      ),
    );
  }

  insert(channelId: string, settings: ChannelSettings, now: number): ChannelRow {
    this.db
      .prepare(
        `INSERT INTO channels (channel_id, name, kind, base_url, models, priority, weight, timeout_ms, idle_timeout_ms, deadline_ms, api, compat, headers, enabled, key_hint, region, project, created_at, updated_at)
         VALUES (@channel_id, @name, @kind, @base_url, @models, @priority, @weight, @timeout_ms, @idle_timeout_ms, @deadline_ms, @api, @compat, @headers, @enabled, @key_hint, @region, @project, @now, @now)`,
      )
      .run({ ...settings, channel_id: channelId, now });
    this.all.changed();
    return this.findById(channelId)!;
  }

  /** Every channel, by priority (highest first), then oldest first; the rows are shared and read-only. */
  list(): readonly Readonly<ChannelRow>[] {
    return this.all.get();
  }

  findById(channelId: string): ChannelRow | undefined {
    return this.db.prepare('SELECT * FROM channels WHERE channel_id = ?').get(channelId) as ChannelRow | undefined;
  }

  /** By name, ignoring case (names are unique regardless of case). */
  findByName(name: string): ChannelRow | undefined {
    return this.db.prepare('SELECT * FROM channels WHERE name = ?').get(name) as ChannelRow | undefined;
  }

  /** Replaces a channel's settings; returns the new row, or undefined when it no longer exists. */
  update(channelId: string, settings: ChannelSettings, now: number): ChannelRow | undefined {
    this.db
      .prepare(
        `UPDATE channels SET name = @name, kind = @kind, base_url = @base_url, models = @models, priority = @priority, weight = @weight,
           timeout_ms = @timeout_ms, idle_timeout_ms = @idle_timeout_ms, deadline_ms = @deadline_ms, api = @api, compat = @compat, headers = @headers, enabled = @enabled, key_hint = @key_hint, region = @region, project = @project, revision = revision + 1, updated_at = @now
         WHERE channel_id = @channel_id`,
      )
      .run({ ...settings, channel_id: channelId, now });
    this.all.changed();
    return this.findById(channelId);
  }

  remove(channelId: string): boolean {
    this.all.changed();
    return this.db.prepare('DELETE FROM channels WHERE channel_id = ?').run(channelId).changes > 0;
  }

  /** A successful attempt: the failure streak and any cooldown end. */
  recordSuccess(channelId: string, latencyMs: number, now: number): void {
    this.all.changed();
    this.db
      .prepare(
        `UPDATE channels SET consecutive_failures = 0, cooldown_until = NULL, last_latency_ms = ?, last_ok_at = ? WHERE channel_id = ?`,
      )
      .run(latencyMs, now, channelId);
  }

  /**
   * A failed attempt: the streak grows by one (read and written in one transaction, so attempts recorded by two
   * processes both count) and `cooldownFor(streak)` (ms, 0 for none) sets the cooldown.
   */
  recordFailure(
    channelId: string,
    failure: { latencyMs: number; error: string; now: number },
    cooldownFor: (streak: number) => number,
  ): void {
    this.all.changed();
    this.db
      .transaction(() => {
        const row = this.db.prepare('SELECT consecutive_failures FROM channels WHERE channel_id = ?').get(channelId) as
          { consecutive_failures: number } | undefined;
        if (!row) return;
        const streak = row.consecutive_failures + 1;
        const cooldown = cooldownFor(streak);
        this.db
          .prepare(
            `UPDATE channels SET consecutive_failures = ?, cooldown_until = ?, last_error = ?, last_error_at = ?, last_latency_ms = ?
           WHERE channel_id = ?`,
          )
          .run(streak, cooldown > 0 ? failure.now + cooldown : null, failure.error, failure.now, failure.latencyMs, channelId);
      })
      .immediate();
  }

  /** Notes a problem found before any attempt (a key missing from the secret store) without counting it as a failure. */
  noteError(channelId: string, error: string, now: number): void {
    this.all.changed();
    this.db.prepare('UPDATE channels SET last_error = ?, last_error_at = ? WHERE channel_id = ?').run(error, now, channelId);
  }
}
