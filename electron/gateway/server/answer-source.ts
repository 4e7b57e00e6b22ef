// Every API answer says where it came from: `x-gatehouse-source: simulate | relay;channel=NAME | fixture | replay;cassette=FILE`, from the same decision as the journal's source.
import type { FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import type { JournalSource } from '../../../shared/journal.ts';

/** The header naming who answered a call. */
export const SOURCE_HEADER = 'x-gatehouse-source';

/**
 * Who answered `request`: a fixture (or fixtures' strict refusal), else a cassette (`noteReplay`) or replay's refusal, else
 * a relay channel (tried), else the simulator; null for a call refused before any (no principal).
 */
export function answerSourceOf(request: FastifyRequest, decidedBy: 'fixture' | 'replay' | null): JournalSource | null {
  if (decidedBy === 'fixture') return 'fixture';
  if (request.journalReplay || decidedBy === 'replay') return 'replay';
  return request.journalRelay ? 'relay' : request.principal ? 'simulate' : null;
}

/** The header's value: the source, for a replay its cassette's file (percent-encoded), for relay the channel that answered (else the last one tried). */
function headerValue(request: FastifyRequest, source: JournalSource): string {
  if (source === 'replay') return request.journalReplay ? `replay;cassette=${encodeURIComponent(request.journalReplay.file)}` : 'replay';
  if (source !== 'relay') return source;
  const relay = request.journalRelay!;
  const channel = relay.channel ?? relay.attempts.at(-1)?.channel;
  return channel ? `relay;channel=${channel}` : 'relay';
}

/**
 * Names the answer's source on `raw` as its head is about to be written (JSON, error or stream alike): called by the
 * API call's one head watch (journal-capture.ts, through write-tap.ts `watchHead`), which also knows whether a fixture answered.
 */
export function nameAnswerSource(request: FastifyRequest, raw: ServerResponse, decidedBy: 'fixture' | 'replay' | null): void {
  const source = answerSourceOf(request, decidedBy);
  if (source !== null && !raw.headersSent && !raw.hasHeader(SOURCE_HEADER)) raw.setHeader(SOURCE_HEADER, headerValue(request, source));
}
