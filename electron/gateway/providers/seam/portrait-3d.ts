// The seam's portrait and 3D capabilities: the reviewer of portrait assets, 3D generation, and the service channels behind them.
import type { AssetType } from '../../../../shared/portrait.ts';
import type { CallContext } from '../types.ts';

/** The state of a 3D generation upstream; a finished one may say when it finished (ms; absent: when it was seen). */
export type Mesh3dState =
  | { state: 'SUBMITTED' | 'QUEUED' | 'IN_PROGRESS'; progress: number }
  | { state: 'SUCCESS'; file: Uint8Array; outputTokens: number; finishedAt?: number }
  | { state: 'FAILURE'; reason: string; finishedAt?: number };

/** What a 3D task asked for, as the gateway stored it. */
export interface Mesh3dTask {
  upstreamId: string;
  model: string;
  prompt: string;
  imageUrl: string | null;
  format: 'glb' | 'obj' | 'stl';
  submittedAt: number;
  /** The time the upstream gave the task when it was submitted. */
  durationMs: number;
}

export interface Mesh3dProvider {
  /** Starts a generation; returns the upstream's id for it and the input tokens it counts. */
  submit(
    request: Omit<Mesh3dTask, 'upstreamId' | 'submittedAt' | 'durationMs'>,
    call: CallContext,
  ): Promise<{ upstreamId: string; inputTokens: number; durationMs: number }>;
  /** Where a task stands; a finished task's file comes once, with SUCCESS. Throws UpstreamError when the upstream cannot tell. */
  check(task: Mesh3dTask): Promise<Mesh3dState>;
}

/** What the upstream says of a submitted asset. */
export type ReviewVerdict = { status: 'Processing' } | { status: 'Active'; resolvedUrl: string } | { status: 'Failed'; reason: string };

/** A local portrait group as a remote reviewer creates it. */
export interface ReviewGroup {
  name: string;
  description: string;
  groupType: string;
}

/** Registers portrait assets upstream and reports their review (runs in requests and in the background scan). */
export interface Reviewer {
  /** Remote reviewers keep assets in their own groups: creates one and returns its upstream id (absent: the reviewer needs none). Throws UpstreamError. */
  createGroup?(group: ReviewGroup): Promise<string>;
  /** Submits a URL for review and returns the upstream's id for it (`groupUpstreamId`: from `createGroup`, for reviewers that have it). Throws UpstreamError. */
  submit(input: { url: string; assetType: AssetType; name?: string; groupUpstreamId?: string }): Promise<{ upstreamId: string }>;
  /** Asks the upstream for the current verdict. Throws UpstreamError (a refresh error, the status kept). */
  check(upstreamId: string): Promise<ReviewVerdict>;
}

/** Which reviewer an asset is registered with: a channel (by id, and the label the console shows), or the simulator (`channelId` null). */
export interface ReviewerRef {
  channelId: string | null;
  label: string;
}

/** Chooses the portrait library's reviewer: new assets go to the current one; an asset keeps its own until it is terminal. */
export interface ReviewerSelector {
  /** The reviewer for new assets: the highest-priority enabled `platform` or `volcengine` channel, else the simulator. */
  current(): ReviewerRef;
  /** The reviewer of a service channel (the simulator's is the call's bundle's). Throws UpstreamError when that channel is gone or its key is missing. */
  of(channelId: string): Promise<Reviewer>;
}

/** The 3D provider of a model served by a `platform` channel, with that channel's id (stored on the task). */
export interface Mesh3dRoute {
  channelId: string;
  mesh3d: Mesh3dProvider;
}

/** Chooses `platform` channels for 3D tasks: a model one serves is created there; a task is checked on the channel that created it. */
export interface Mesh3dChannels {
  /** The enabled platform channel of highest priority serving `model`, or undefined (the task goes to the call's bundle). */
  forModel(model: string): Promise<Mesh3dRoute | undefined>;
  /** The provider of the channel a task was created on. Throws UpstreamError when the channel is gone or its key is missing. */
  ofChannel(channelId: string, model: string): Promise<Mesh3dProvider>;
}

/** A `platform` or `volcengine` channel as its provider uses it: where to send, with which credential and options. */
export interface ServiceChannel {
  id: string;
  name: string;
  kind: 'platform' | 'volcengine';
  baseUrl: string;
  /** The channel's time limits (see RelayChannel); a service call is also bounded whole by `timeoutMs`. */
  timeoutMs: number;
  idleTimeoutMs: number;
  deadlineMs: number;
  headers: Readonly<Record<string, string>>;
  /** `platform`: the bearer token; `volcengine`: `AK:SK`. Null when none is set. */
  key: string | null;
  /** `volcengine`: the region and project name. */
  region: string;
  project: string;
  /** The model name sent upstream for a 3D task (`local=upstream` renames); empty when no model is meant. */
  upstreamModel: string;
}

/** The portrait and 3D service channels, as the reviewer and 3D choice read them (SQLite and the secret store, read per call). */
export interface ServiceChannelDirectory {
  /** The enabled service channels (optionally of one kind) that serve `model` (any, when absent), highest priority first; keys not read. */
  enabledServiceChannels(filter?: {
    kind?: 'platform' | 'volcengine';
    model?: string;
  }): { id: string; name: string; kind: 'platform' | 'volcengine' }[];
  /** A service channel by id, enabled or not, key included; undefined when it no longer exists. Throws UpstreamError when its key is missing. */
  serviceChannel(id: string, model?: string): Promise<ServiceChannel | undefined>;
}
