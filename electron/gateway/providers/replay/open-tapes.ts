// What the portrait and 3D tapes share: who is recorded (a service channel or the simulator), the bounded set of recordings under way, the channel key kept out of what they save, and a recording's metadata.
import { hideSecret } from '../../../../shared/channels.ts';
import type { CassetteRecording } from '../../../../shared/cassette.ts';
import { rfc3339, type Clock } from '../../time.ts';

/** Most portrait reviews, and separately most 3D tasks, followed at once while recording; past it the oldest is no longer recorded. */
export const MAX_OPEN_TAPES = 10_000;

/** Who answers: a service channel (its id, its name as the cassette shows it, and its key to keep out of what is saved), or the simulator. */
export type TapeSource = { mode: 'relay'; id: string; channel: string; key: string | null } | { mode: 'simulate' };

/** The recordings under way, by source and upstream id (a channel's ids are its own; the simulator's are its own), at most MAX_OPEN_TAPES. */
export class OpenTapes<T> {
  private readonly open = new Map<string, T>();

  /** Starts following `upstreamId`; the oldest recording is dropped when MAX_OPEN_TAPES are open. */
  add(source: TapeSource, upstreamId: string, tape: T): void {
    if (this.open.size >= MAX_OPEN_TAPES) this.open.delete(this.open.keys().next().value!);
    this.open.set(keyOf(source, upstreamId), tape);
  }

  get(source: TapeSource, upstreamId: string): T | undefined {
    return this.open.get(keyOf(source, upstreamId));
  }

  /** Stops following `upstreamId` (its recording is complete). */
  close(source: TapeSource, upstreamId: string): void {
    this.open.delete(keyOf(source, upstreamId));
  }
}

function keyOf(source: TapeSource, upstreamId: string): string {
  return `${source.mode === 'relay' ? source.id : ''}\u0000${upstreamId}`;
}

/** `text` as it may be saved: a channel's key in it becomes its hint (the simulator has none). */
export function hiderOf(source: TapeSource): (text: string) => string {
  return (text) => (source.mode === 'relay' ? hideSecret(text, source.key) : text);
}

/** The recording metadata of a cassette of `source` saved now. */
export function recordingOf(source: TapeSource, clock: Clock, protocol: CassetteRecording['protocol']): CassetteRecording {
  return {
    recordedAt: rfc3339(clock.now()),
    mode: source.mode,
    ...(source.mode === 'relay' && { channel: source.channel }),
    protocol,
  };
}
