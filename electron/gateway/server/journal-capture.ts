// Watches each API call once: its notes and answer source header always, the dashboard's count of it at its end, and for the request journal the request and the answer as written (streams included, with chunk timing), never credentials.
import type { FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { JournalRecorder } from '../services/journal.ts';
import type { Clock } from '../time.ts';
import { keepAnswerSourcePlace, nameAnswerSource } from './answer-source.ts';
import { NotesOfCall } from './call-notes.ts';
import { pathOf, searchOf } from './protocol.ts';
import { recordOf, relayedSessionRecord } from './journal-record.ts';
import { ResponseTap } from './response-tap.ts';
import type { SyncStep } from './sync-hook.ts';
import { watchHead } from './write-tap.ts';
import { isUpgrade } from './socket-scope.ts';

/** API paths are journaled; the console, admin API, health checks and sockets are not. */
export function isJournaledPath(path: string): boolean {
  return /^\/(v1|v1beta|v2)\//.test(path);
}

/** The model a call named: the body's `model`, or Gemini's `models/{model}:method` path. */
export function modelOf(path: string, body: unknown): string | null {
  const fromPath = /\/models\/([^/:]+):/.exec(path);
  if (fromPath) return decodedOrRaw(fromPath[1]!).slice(0, 200);
  const model = (body as { model?: unknown } | null)?.model;
  return typeof model === 'string' && model !== '' ? model.slice(0, 200) : null;
}

function decodedOrRaw(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Counts one finished call (call-counting.ts): its request, its closed response, its path, when it arrived (the clock's) and started (performance.now()). */
export type CallCounter = (request: FastifyRequest, raw: ServerResponse, path: string, at: number, startedAt: number) => void;

/** What the journal needs from the gateway. */
export interface JournalHookOptions {
  recorder: JournalRecorder;
  /** The account and token name of the API token a call named (usable or refused), or null when it named none of this gateway's. */
  holderOf: (request: FastifyRequest) => { account: string; token: string } | null;
}

/**
 * The one step that watches API calls (after the Host check, before authentication; run among the app's own onRequest
 * steps, see app.ts): each call gets its notes (`request.callNotes`, where the services note charges, first output and a
 * fixture answer) and its answer's `x-gatehouse-source` header, set as the head is written; with `journal`, each
 * finished (or abandoned) call that names one of the gateway's tokens also becomes one journal record (a refused token's
 * call included). Calls naming none (what any web page can send with a no-cors fetch) are only counted, so they cannot
 * push real entries out. A failure while recording loses that entry, never the process. One step, one notes object and
 * one writeHead wrap per call serve both.
 */
export function callCaptureStep({
  clock,
  journal,
  count,
}: {
  clock: Clock;
  journal: JournalHookOptions | null;
  /** The dashboard's count of the call (call-counting.ts), made by the same close listener, after its journal record. */
  count: CallCounter;
}): SyncStep {
  return (request, reply) => {
    const path = pathOf(request);
    // Preflights are not calls of the API; nor are sockets, but for a relayed realtime session.
    if (!isJournaledPath(path) || request.method === 'OPTIONS') return;
    if (isUpgrade(request)) {
      if (journal) journalSession(request, journal, clock, path, searchOf(request));
      return;
    }
    const startedAt = performance.now();
    const notes = new NotesOfCall(startedAt);
    request.callNotes = notes;
    keepAnswerSourcePlace(reply);
    const raw = reply.raw;
    const at = clock.now();
    if (!journal) {
      watchHead(raw, (given) => nameAnswerSource(request, raw, given, notes.decidedBy));
      // Closed once: a plain listener, no wrapper made per call.
      raw.on('close', () => count(request, raw, path, at, startedAt));
      return;
    }
    const { recorder, holderOf } = journal;
    const tap = new ResponseTap(raw, startedAt);
    watchHead(raw, (given) => {
      nameAnswerSource(request, raw, given, notes.decidedBy);
      tap.head(given);
    });
    // Closed once: a plain listener, no wrapper made per call; one for the journal and the count.
    raw.on('close', () => {
      try {
        const holder = holderOf(request);
        if (holder === null) recorder.countUnauthenticated();
        else
          recorder.add(
            recordOf(request, raw, tap, notes, {
              at,
              path,
              search: searchOf(request),
              startedAt,
              account: holder.account,
              token: holder.token,
              model: modelOf(path, request.body),
            }),
          );
      } catch (error) {
        recorder.fail(error);
      }
      count(request, raw, path, at, startedAt);
    });
  };
}

/** The socket of a realtime session closes when it ends; only a session relay tried to open upstream becomes an entry. */
function journalSession(
  request: FastifyRequest,
  { recorder, holderOf }: JournalHookOptions,
  clock: Clock,
  path: string,
  search: string,
): void {
  const startedAt = performance.now();
  const at = clock.now();
  request.raw.socket.once('close', () => {
    try {
      const holder = request.journalRelay && holderOf(request);
      if (holder)
        recorder.add(relayedSessionRecord(request, { at, path, search, startedAt, account: holder.account, token: holder.token }));
    } catch (error) {
      recorder.fail(error);
    }
  });
}
