// The `platform` reviewer: groups and assets are created on another server of this platform's API, and verdicts read from its records.
import type { AssetType } from '../../../../shared/portrait.ts';
import { UpstreamError, UpstreamGroupMissing } from '../../errors.ts';
import type { Reviewer, ReviewGroup, ReviewVerdict, ServiceChannel } from '../types.ts';
import { platformCall, portraitData, textField } from './client.ts';

/** The most pages of 100 remote groups read to learn whether a group still exists there (10,000 groups). */
export const MAX_REMOTE_GROUP_PAGES = 100;
const GROUP_PAGE_SIZE = 100;

export class PlatformReviewer implements Reviewer {
  private readonly channel: ServiceChannel;
  constructor(channel: ServiceChannel) {
    this.channel = channel;
  }

  async createGroup(group: ReviewGroup): Promise<string> {
    const answer = await platformCall(this.channel, 'POST', '/v1/portrait/groups', {
      name: group.name,
      description: group.description,
      group_type: group.groupType,
    });
    return textField(portraitData(this.channel, answer), 'group_id');
  }

  async submit(input: { url: string; assetType: AssetType; name?: string; groupUpstreamId?: string }): Promise<{ upstreamId: string }> {
    if (input.groupUpstreamId === undefined) throw new UpstreamError('no remote group for the asset');
    const answer = await platformCall(this.channel, 'POST', '/v1/portrait/assets', {
      group_id: input.groupUpstreamId,
      url: input.url,
      asset_type: input.assetType,
      name: input.name ?? '',
    });
    try {
      return { upstreamId: textField(portraitData(this.channel, answer), 'asset_id') };
    } catch (error) {
      // A refusal is of a group removed there when the platform's own list no longer has it (whatever its wording).
      if (error instanceof UpstreamError && (await this.groupGone(input.groupUpstreamId))) throw new UpstreamGroupMissing(error.message);
      throw error;
    }
  }

  /** Whether the platform's group list, read whole, lacks `groupId`; false when it has it, or could not be read whole (then nothing is assumed). */
  private async groupGone(groupId: string): Promise<boolean> {
    try {
      let seen = 0;
      for (let page = 1; page <= MAX_REMOTE_GROUP_PAGES; page++) {
        const answer = await platformCall(this.channel, 'GET', `/v1/portrait/groups?p=${page}&page_size=${GROUP_PAGE_SIZE}`);
        const data = portraitData(this.channel, answer);
        const items = Array.isArray(data['items']) ? (data['items'] as unknown[]) : [];
        if (items.some((item) => (item as { group_id?: unknown } | null)?.group_id === groupId)) return false;
        seen += items.length;
        if (items.length === 0 || (typeof data['total'] === 'number' && seen >= data['total'])) return true;
      }
      return false;
    } catch {
      return false;
    }
  }

  /**
   * The remote record's verdict, read from its status first: a terminal one (Active, Failed) stands whatever stale
   * `refresh_error` the record still carries; only a record still in flight makes its remote refresh error this
   * refresh's error (the status is kept).
   */
  async check(upstreamId: string): Promise<ReviewVerdict> {
    const answer = await platformCall(this.channel, 'GET', `/v1/portrait/assets/${encodeURIComponent(upstreamId)}`);
    const record = portraitData(this.channel, answer);
    switch (record['status']) {
      case 'Submitted':
      case 'Processing':
        if (typeof record['refresh_error'] === 'string' && record['refresh_error'] !== '') throw new UpstreamError(record['refresh_error']);
        return { status: 'Processing' };
      case 'Active':
        return { status: 'Active', resolvedUrl: textField(record, 'resolved_url') };
      case 'Failed':
        return { status: 'Failed', reason: typeof record['failure_reason'] === 'string' ? record['failure_reason'] : 'failed upstream' };
      default:
        throw new UpstreamError(`the platform answered an unknown status ${JSON.stringify(record['status']).slice(0, 40)}`);
    }
  }
}
