// The journal's account of a relayed call's tries (channel, status or error, milliseconds), told to the call after each one; keys never in it.
import { hideSecret } from '../../../../shared/channels.ts';
import type { JournalRelay } from '../../../../shared/journal.ts';
import type { CallContext, RelayChannel } from '../types.ts';

/** How one try ended: the upstream's status, or why it did not answer. */
export type AttemptOutcome = { status: number } | { error: string };

/**
 * A recorder of `call`'s tries: each `note` adds one (`answered`: the caller gets this channel's answer, which names the
 * channel and upstream model) and tells the call's journal entry the whole account so far.
 */
export function attemptLog(call: CallContext): (channel: RelayChannel, ms: number, outcome: AttemptOutcome, answered?: boolean) => void {
  const relay: JournalRelay = { channel: null, upstreamModel: null, attempts: [] };
  return (channel, ms, outcome, answered = false) => {
    const error = 'error' in outcome ? hideSecret(outcome.error, channel.key) : null;
    relay.attempts.push({ channel: channel.name, status: 'status' in outcome ? outcome.status : null, error, ms: Math.round(ms) });
    if (answered) {
      relay.channel = channel.name;
      relay.upstreamModel = channel.upstreamModel;
    }
    // A copy as it stands now: a later try does not change what was told.
    call.noteRelay?.({ channel: relay.channel, upstreamModel: relay.upstreamModel, attempts: relay.attempts.slice() });
  };
}
