// The `volcengine` reviewer: Ark asset groups and assets (CreateAssetGroup, CreateAsset, GetAsset), statuses mapped onto the portrait library's.
import type { AssetType } from '../../../../shared/portrait.ts';
import { UpstreamError } from '../../errors.ts';
import type { Reviewer, ReviewGroup, ReviewVerdict, ServiceChannel } from '../types.ts';
import { arkCall } from './client.ts';

export class VolcengineReviewer implements Reviewer {
  private readonly channel: ServiceChannel;
  private readonly now: () => Date;
  /** `now`: the clock requests are dated (and signed) with. */
  constructor(channel: ServiceChannel, now: () => Date) {
    this.channel = channel;
    this.now = now;
  }

  async createGroup(group: ReviewGroup): Promise<string> {
    const result = await this.call('CreateAssetGroup', {
      Name: group.name,
      Description: group.description,
      GroupType: group.groupType,
      ProjectName: this.channel.project,
    });
    return idOf(result);
  }

  async submit(input: { url: string; assetType: AssetType; name?: string; groupUpstreamId?: string }): Promise<{ upstreamId: string }> {
    if (input.groupUpstreamId === undefined) throw new UpstreamError('invalid upstream group id (none was created)');
    const result = await this.call('CreateAsset', {
      GroupId: input.groupUpstreamId,
      // Ark takes an absent name, not an empty one.
      ...(input.name && { Name: input.name }),
      AssetType: input.assetType,
      URL: input.url,
      ProjectName: this.channel.project,
    });
    return { upstreamId: idOf(result) };
  }

  /** GetAsset's `Status`: Processing (and the other in-flight words) → Processing, Active → Active with `asset://<Id>`, Failed → Failed with its error. */
  async check(upstreamId: string): Promise<ReviewVerdict> {
    const result = await this.call('GetAsset', { Id: upstreamId, ProjectName: this.channel.project });
    const status = result['Status'];
    switch (status) {
      case 'Pending':
      case 'Submitted':
      case 'Uploading':
      case 'Processing':
        return { status: 'Processing' };
      case 'Active':
        return { status: 'Active', resolvedUrl: `asset://${typeof result['Id'] === 'string' ? result['Id'] : upstreamId}` };
      case 'Failed':
      case 'Inactive': {
        const error = result['Error'] as { Code?: unknown; Message?: unknown } | undefined;
        const detail = [error?.Code, error?.Message].filter((part) => typeof part === 'string' && part !== '').join(': ');
        return { status: 'Failed', reason: detail || `the asset is ${status} upstream` };
      }
      default:
        throw new UpstreamError(`the upstream answered an unknown asset status ${JSON.stringify(status).slice(0, 40)}`);
    }
  }

  private call(action: string, body: Record<string, unknown>) {
    return arkCall(this.channel, action, body, this.now);
  }
}

function idOf(result: Record<string, unknown>): string {
  if (typeof result['Id'] !== 'string' || result['Id'] === '') throw new UpstreamError('the upstream answered no Id');
  return result['Id'];
}
