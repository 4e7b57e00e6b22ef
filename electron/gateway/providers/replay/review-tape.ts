// Records portrait reviews: each asset's registration (its normal form) and what its reviewer said at each check, offsets on the gateway's clock, saved as one cassette once the verdict is final.
import type { CassetteRequest, PortraitCassette } from '../../../../shared/cassette.ts';
import { UpstreamError } from '../../errors.ts';
import type { ReportError } from '../../safe-events.ts';
import type { Clock } from '../../time.ts';
import type { CassetteRecorder, RecordedCall, Reviewer } from '../types.ts';
import { hiderOf, OpenTapes, recordingOf, type TapeSource } from './open-tapes.ts';

type Observation = PortraitCassette['observations'][number];

interface OpenTape {
  request: CassetteRequest;
  source: TapeSource;
  submittedAt: number;
  observations: Observation[];
}

/** The registration a portrait cassette is keyed by (the same on recording and on replay): URL, type and name; the group's id differs every run. */
export function portraitCall(registration: { url: string; assetType: string; name?: string | undefined }): RecordedCall {
  return {
    protocol: 'portrait',
    method: 'POST',
    path: '/v1/portrait/assets',
    endpoint: '/v1/portrait/assets',
    model: null,
    body: { url: registration.url, asset_type: registration.assetType, name: registration.name ?? '' },
    stream: false,
  };
}

/** The open tapes of the reviews under way (in memory, bounded: the oldest is dropped), by reviewer and upstream id. */
export class ReviewTapes {
  private readonly recorder: CassetteRecorder;
  private readonly clock: Clock;
  private readonly report: ReportError;
  private readonly open = new OpenTapes<OpenTape>();

  constructor(recorder: CassetteRecorder, clock: Clock, report: ReportError) {
    this.recorder = recorder;
    this.clock = clock;
    this.report = report;
  }

  /** `reviewer` whose registrations and checks are recorded. */
  wrap(reviewer: Reviewer, source: TapeSource): Reviewer {
    const hide = hiderOf(source);
    return {
      ...(reviewer.createGroup && { createGroup: (group) => reviewer.createGroup!(group) }),
      submit: async (input) => {
        const submitted = await reviewer.submit(input);
        this.open.add(source, submitted.upstreamId, {
          request: this.recorder.requestOf(portraitCall(input)),
          source,
          submittedAt: this.clock.now(),
          observations: [],
        });
        return submitted;
      },
      check: async (upstreamId) => {
        const tape = this.open.get(source, upstreamId);
        if (!tape) return reviewer.check(upstreamId);
        const atMs = Math.max(0, this.clock.now() - tape.submittedAt);
        try {
          const verdict = await reviewer.check(upstreamId);
          tape.observations.push({
            atMs,
            status: verdict.status,
            ...(verdict.status === 'Active' && { resolvedUrl: hide(verdict.resolvedUrl) }),
            ...(verdict.status === 'Failed' && { failureReason: hide(verdict.reason) }),
          });
          if (verdict.status !== 'Processing') {
            this.open.close(source, upstreamId);
            this.save(tape).catch(this.report);
          }
          return verdict;
        } catch (error) {
          if (error instanceof UpstreamError) tape.observations.push({ atMs, status: 'Processing', refreshError: hide(error.message) });
          throw error;
        }
      },
    };
  }

  private async save(tape: OpenTape): Promise<void> {
    await this.recorder.save({
      kind: 'portrait',
      recording: recordingOf(tape.source, this.clock, 'portrait'),
      request: tape.request,
      observations: tape.observations,
    });
  }
}
