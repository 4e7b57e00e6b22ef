// Chooses the portrait reviewer (the highest-priority enabled platform or volcengine channel, else the simulator) and the platform channel of a 3D model.
import { UpstreamError } from '../errors.ts';
import { PlatformMesh3d } from './platform/mesh3d.ts';
import { PlatformReviewer } from './platform/reviewer.ts';
import type { ReviewTapes } from './replay/review-tape.ts';
import type { Task3dTapes } from './replay/task3d-tape.ts';
import type {
  Mesh3dChannels,
  Mesh3dProvider,
  Mesh3dRoute,
  Reviewer,
  ReviewerRef,
  ReviewerSelector,
  ServiceChannelDirectory,
} from './types.ts';
import { volcengineGroupRefusal, type GroupRefused } from './volcengine/group-limits.ts';
import { VolcengineReviewer } from './volcengine/reviewer.ts';

/** How an asset registered with the simulator names its reviewer. */
export const SIMULATED_REVIEWER = 'simulated';

export interface ServiceChoiceOptions {
  channels: ServiceChannelDirectory;
  /** The clock requests are dated with (Volcengine signs the date). */
  now: () => number;
  /** `--record`: the channels' reviews and 3D tasks are recorded as cassettes; absent: not. */
  tapes?: { reviews: ReviewTapes; tasks: Task3dTapes };
}

export class ServiceChoice implements ReviewerSelector, Mesh3dChannels {
  private readonly options: ServiceChoiceOptions;
  constructor(options: ServiceChoiceOptions) {
    this.options = options;
  }

  current(): ReviewerRef {
    const channel = this.options.channels.enabledServiceChannels()[0];
    return channel ? { channelId: channel.id, label: `${channel.name} (${channel.kind})` } : { channelId: null, label: SIMULATED_REVIEWER };
  }

  /** Why the reviewing channel would refuse a group with these fields (a volcengine channel's Ark limits); undefined when none would. */
  groupRefusal(group: { name?: string; description?: string; groupType?: string }): GroupRefused | undefined {
    const channel = this.options.channels.enabledServiceChannels()[0];
    return channel?.kind === 'volcengine' ? volcengineGroupRefusal(group) : undefined;
  }

  async of(channelId: string): Promise<Reviewer> {
    const channel = await this.options.channels.serviceChannel(channelId);
    if (!channel) throw new UpstreamError('the channel this asset was registered with no longer exists');
    const reviewer =
      channel.kind === 'platform' ? new PlatformReviewer(channel) : new VolcengineReviewer(channel, () => new Date(this.options.now()));
    return (
      this.options.tapes?.reviews.wrap(reviewer, { mode: 'relay', id: channel.id, channel: channel.name, key: channel.key }) ?? reviewer
    );
  }

  async forModel(model: string): Promise<Mesh3dRoute | undefined> {
    const channel = this.options.channels.enabledServiceChannels({ kind: 'platform', model })[0];
    if (!channel) return undefined;
    return { channelId: channel.id, mesh3d: await this.ofChannel(channel.id, model) };
  }

  async ofChannel(channelId: string, model: string): Promise<Mesh3dProvider> {
    const channel = await this.options.channels.serviceChannel(channelId, model);
    if (!channel || channel.kind !== 'platform') throw new UpstreamError('the channel this task was created on no longer exists');
    const mesh3d = new PlatformMesh3d(channel);
    return this.options.tapes?.tasks.wrap(mesh3d, { mode: 'relay', id: channel.id, channel: channel.name, key: channel.key }) ?? mesh3d;
  }
}
