// Repository of remote portrait groups: the id a service channel gave a local group, so its assets go to the same remote group.
import type { Db } from './database.ts';

export class RemoteGroupsRepo {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /** The remote id of local group `groupRef` on `channelId`, or undefined when none was created there yet. */
  find(groupRef: number, channelId: string): string | undefined {
    const row = this.db
      .prepare('SELECT remote_group_id FROM portrait_remote_groups WHERE group_ref = ? AND channel_id = ?')
      .get(groupRef, channelId) as { remote_group_id: string } | undefined;
    return row?.remote_group_id;
  }

  /** Forgets the remote id (the group was removed upstream). */
  forget(groupRef: number, channelId: string): void {
    this.db.prepare('DELETE FROM portrait_remote_groups WHERE group_ref = ? AND channel_id = ?').run(groupRef, channelId);
  }

  /** Remembers the remote id (a later one for the same pair replaces it). */
  set(groupRef: number, channelId: string, remoteGroupId: string): void {
    this.db
      .prepare('INSERT OR REPLACE INTO portrait_remote_groups (group_ref, channel_id, remote_group_id) VALUES (?, ?, ?)')
      .run(groupRef, channelId, remoteGroupId);
  }
}
