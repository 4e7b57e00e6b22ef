// The list of schema migrations; each runs once, in a transaction, and is recorded in `schema_migrations`.
import { initial } from './001-initial.ts';
import { usage } from './002-usage.ts';
import { tasks3d } from './003-tasks3d.ts';
import { responses } from './004-responses.ts';
import { journal } from './005-journal.ts';
import { journalIds } from './006-journal-ids.ts';
import { responseBytes } from './007-response-bytes.ts';
import { usageDaily } from './008-usage-daily.ts';
import { simReviewsOut } from './009-sim-reviews-out.ts';
import { tasks3dUpstream } from './010-tasks3d-upstream.ts';
import { channels } from './011-channels.ts';
import { journalRelay } from './012-journal-relay.ts';
import { relayedResponses } from './013-relayed-responses.ts';
import { prices } from './014-prices.ts';
import { openaiSurface } from './015-openai-surface.ts';
import { usageStats } from './016-usage-stats.ts';
import { consoleRecords } from './017-console-records.ts';
import { portraitUpstreams } from './018-portrait-upstreams.ts';
import { channelApi } from './019-channel-api.ts';
import { unreadIndexes } from './020-unread-indexes.ts';
import { journalTexts } from './021-journal-texts.ts';
import { channelReadLimits } from './022-channel-read-limits.ts';
import { journalTestIds } from './023-journal-test-ids.ts';
import { conversations } from './024-conversations.ts';
import { channelCompat } from './025-channel-compat.ts';
import { journalCassettes } from './026-journal-cassettes.ts';
import { journalOut } from './027-journal-out.ts';
import { ledgerById } from './028-ledger-by-id.ts';
import { statsDaily } from './029-stats-daily.ts';
import type { Db } from '../database.ts';

/** One numbered schema step. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
  /**
   * SQL made from the file's schema as it is when the step runs, executed before `sql` (in the same transaction):
   * for a step that must keep whatever columns other steps, merged in another order, have added.
   */
  schemaSql?: (db: Db) => string;
}

/** Every migration, ascending by version. Never edit a released one; add a new number instead. */
export const migrations: readonly Migration[] = [
  initial,
  usage,
  tasks3d,
  responses,
  journal,
  journalIds,
  responseBytes,
  usageDaily,
  simReviewsOut,
  tasks3dUpstream,
  channels,
  journalRelay,
  relayedResponses,
  prices,
  openaiSurface,
  usageStats,
  consoleRecords,
  portraitUpstreams,
  channelApi,
  unreadIndexes,
  journalTexts,
  channelReadLimits,
  journalTestIds,
  conversations,
  channelCompat,
  journalCassettes,
  journalOut,
  ledgerById,
  statsDaily,
];
