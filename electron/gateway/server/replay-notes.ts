// Tells the cassette folder which cassette answered each replayed call (`noteReplay`), once the call ends, so the replay run's record names it (journal on or off).
import type { FastifyInstance } from 'fastify';
import type { CassetteAdmin } from '../../../shared/cassette-admin.ts';
import { isJournaledPath } from './journal-capture.ts';
import { pathOf } from './protocol.ts';
import { syncHook } from './sync-hook.ts';
import { isUpgrade } from './socket-scope.ts';

/** Adds the hook: an API call (or a realtime session) a cassette answered is told to `folder` when its connection closes. */
export function installReplayNotes(app: FastifyInstance, folder: Pick<CassetteAdmin, 'replayed'>): void {
  app.addHook(
    'onRequest',
    syncHook((request, reply) => {
      if (!isJournaledPath(pathOf(request)) || request.method === 'OPTIONS') return;
      const ended = () => {
        if (request.journalReplay) folder.replayed(request.journalReplay.file);
      };
      if (isUpgrade(request)) request.raw.socket.once('close', ended);
      else reply.raw.once('close', ended);
    }),
  );
}
