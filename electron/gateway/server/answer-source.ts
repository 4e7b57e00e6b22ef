// Every API answer says where it came from: `x-gatehouse-source: simulate | relay;channel=NAME | fixture`, from the same decision as the journal's source.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import type { JournalSource } from '../../../shared/journal.ts';
import type { CallNotes } from '../principal.ts';

/** The header naming who answered a call. */
export const SOURCE_HEADER = 'x-gatehouse-source';

/** Who answered `request`: a fixture, else a relay channel (tried), else the simulator; null for a call refused before any (no principal). */
export function answerSourceOf(request: FastifyRequest, fixtureAnswered: boolean): JournalSource | null {
  return fixtureAnswered ? 'fixture' : request.journalRelay ? 'relay' : request.principal ? 'simulate' : null;
}

/** The header's value: the source, and for relay the channel that answered (else the last one tried). */
function headerValue(request: FastifyRequest, source: JournalSource): string {
  if (source !== 'relay') return source;
  const relay = request.journalRelay!;
  const channel = relay.channel ?? relay.attempts.at(-1)?.channel;
  return channel ? `relay;channel=${channel}` : 'relay';
}

/**
 * Adds the hook (after the journal's, before authentication): the call's notes are wrapped to see a fixture answer,
 * and the header is set as the answer's head is written (JSON, error or stream alike).
 */
export function installAnswerSource(app: FastifyInstance, isApiPath: (path: string) => boolean): void {
  app.addHook('onRequest', async (request, reply) => {
    const [path = ''] = request.url.split('?', 1);
    if (!isApiPath(path) || request.method === 'OPTIONS' || request.ws) return;
    let fixtureAnswered = false;
    const inner = request.callNotes;
    const notes: CallNotes = {
      charged: (charge) => inner?.charged(charge),
      firstOutput: () => inner?.firstOutput(),
      note: (text) => inner?.note(text),
      fixture: (label) => {
        fixtureAnswered = true;
        inner?.fixture?.(label);
      },
    };
    request.callNotes = notes;
    const raw: ServerResponse = reply.raw;
    const writeHead = raw.writeHead;
    raw.writeHead = function (this: ServerResponse, ...args: unknown[]) {
      const source = answerSourceOf(request, fixtureAnswered);
      if (source !== null && !this.headersSent && !this.hasHeader(SOURCE_HEADER))
        this.setHeader(SOURCE_HEADER, headerValue(request, source));
      return (writeHead as (...given: unknown[]) => ServerResponse).apply(this, args);
    } as ServerResponse['writeHead'];
  });
}
