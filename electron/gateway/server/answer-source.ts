// Every API answer says where it came from: `x-gatehouse-source: simulate | relay;channel=NAME | fixture | replay;cassette=FILE`, from the same decision as the journal's source.
import type { FastifyReply, FastifyRequest } from 'fastify';
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

/** The header's value until the head is written: a place kept among the reply's headers, filled (or dropped) by `nameAnswerSource`. */
const PENDING = '';

/**
 * Keeps the header's place among `reply`'s headers (after x-request-id, where it has always gone), for
 * `nameAnswerSource` to fill as the head is written: every writer passes the reply's headers to writeHead (Fastify's
 * send, the gateway's stream, relay and fault writers), so the header needs no setHeader on the raw response, which
 * would send every header of the head through Node's setHeader again (its slower path).
 */
export function keepAnswerSourcePlace(reply: FastifyReply): void {
  reply.header(SOURCE_HEADER, PENDING);
}

/**
 * Names the answer's source as its head is about to be written with `given` (the headers passed to writeHead; JSON,
 * error or stream alike): fills the place `keepAnswerSourcePlace` kept, where it went (`given`, or `raw` for a stream
 * Fastify sends, which copies the reply's headers onto it), or drops it for a call no source answered; a head written
 * without the reply's headers gets it on `raw`. Called by the API call's one head watch (journal-capture.ts, through
 * write-tap.ts `watchHead`), which also knows whether a fixture answered.
 */
export function nameAnswerSource(
  request: FastifyRequest,
  raw: ServerResponse,
  given: object,
  decidedBy: 'fixture' | 'replay' | null,
): void {
  const source = answerSourceOf(request, decidedBy);
  const value = source === null ? undefined : headerValue(request, source);
  const head = given as Record<string, unknown>;
  const placed = head[SOURCE_HEADER] === PENDING;
  if (placed) {
    if (value === undefined) delete head[SOURCE_HEADER];
    else head[SOURCE_HEADER] = value;
  }
  if (raw.headersSent) return;
  const onRaw = raw.getHeader(SOURCE_HEADER);
  if (onRaw === PENDING) {
    if (value === undefined) raw.removeHeader(SOURCE_HEADER);
    else raw.setHeader(SOURCE_HEADER, value);
  } else if (value !== undefined && onRaw === undefined && !placed && head[SOURCE_HEADER] === undefined) {
    raw.setHeader(SOURCE_HEADER, value);
  }
}
