// Replays realtime sessions: the model's recorded sessions are the candidates, the client's frames choose among them (event ids and the replay's ignored paths aside), and the player sends the upstream's frames as recorded.
import { CassetteError, type RealtimeCassette } from '../../../../shared/cassette.ts';
import type { CassetteShelf, FoundCassette, RealtimeRelayProvider, RecordedCall } from '../types.ts';
import { differences } from './closest.ts';
import type { Playback } from './playback.ts';
import { bytesOf, refusedCassette } from './work-replay.ts';
import { RealtimePlayer, type FrameDiffer, type PlayedFrame, type PlayedSession } from './realtime-player.ts';

/** The call every realtime session of `model` is recorded under: the opening names only the model, the frames do the rest. */
export function realtimeCall(model: string): RecordedCall {
  return { protocol: 'realtime', method: 'GET', path: '/v1/realtime', endpoint: '/v1/realtime', model, stream: false };
}

/** Client event fields that differ between runs of the same session and are never matched on. */
const VOLATILE_EVENT_FIELDS = ['event_id'];

/**
 * The relay of a session `found` answers (the model's recorded sessions, the next of its sequence first): each is read
 * when the session opens (a damaged one refuses the session naming its file), then played at `playback`'s speed.
 */
export function replayRealtime(found: FoundCassette[], shelf: CassetteShelf, playback: Playback): RealtimeRelayProvider {
  return {
    open: async (client, request, call) => {
      // Frames the client sends while the cassettes are read wait in the socket.
      client.pause();
      let sessions: PlayedSession[];
      try {
        sessions = await Promise.all(found.map((each) => played(each, playback)));
      } catch (error) {
        client.resume();
        refusedCassette(error);
      }
      const first = found[0]!;
      call.noteReplay?.({ file: first.file, sequence: first.sequence, recordedAt: sessions[0]!.recordedAt });
      const differ = frameDiffer(shelf, request.model);
      const { speed, wait } = playback;
      new RealtimePlayer(client, sessions, { request, speed, wait, differ, model: request.model }).start();
      client.resume();
    },
  };
}

/** A recorded session read for playing: its frames' payloads (blobs read) and, when the upstream closed it, how. */
async function played(found: FoundCassette, playback: Playback): Promise<PlayedSession> {
  const cassette = (await found.load()) as RealtimeCassette;
  const frames: PlayedFrame[] = [];
  for (const [index, frame] of cassette.frames.entries()) {
    const at = { from: frame.from, atMs: frame.atMs };
    if (frame.text !== undefined) frames.push({ ...at, data: frame.text, binary: false });
    else if (frame.textBlob)
      frames.push({ ...at, data: (await bytesOf(playback.blob(frame.textBlob, found.file))).toString('utf8'), binary: false });
    else if (frame.binary && 'base64' in frame.binary)
      frames.push({ ...at, data: Buffer.from(frame.binary.base64, 'base64'), binary: true });
    else if (frame.binary && 'blob' in frame.binary)
      frames.push({ ...at, data: await bytesOf(playback.blob(frame.binary.blob, found.file)), binary: true });
    else if (frame.binary && 'text' in frame.binary) frames.push({ ...at, data: Buffer.from(frame.binary.text), binary: true });
    else throw new CassetteError(found.file, `frames[${index}]`, 'must have one of text, textBlob and binary');
  }
  const close = cassette.close?.from === 'upstream' ? { code: cassette.close.code, reason: cassette.close.reason } : undefined;
  return { file: found.file, frames, recordedAt: cassette.recording.recordedAt, ...(close && { upstreamClose: close }) };
}

/** Compares client frames by their normal form (a JSON event without its volatile fields, under the replay's ignore list); binary frames byte for byte. */
function frameDiffer(shelf: CassetteShelf, model: string): FrameDiffer {
  const normal = (data: string | Buffer): unknown => {
    const text = data.toString();
    let event: unknown;
    try {
      event = JSON.parse(text);
    } catch {
      return text;
    }
    if (isObject(event)) for (const field of VOLATILE_EVENT_FIELDS) delete event[field];
    return (shelf.requestOf({ ...realtimeCall(model), body: event }).normal as { body?: unknown }).body;
  };
  return (recorded, given) => {
    if (recorded.binary !== given.binary) return recorded.binary ? '(a binary frame was recorded)' : '(a text frame was recorded)';
    if (recorded.binary) return Buffer.compare(recorded.data as Buffer, given.data) === 0 ? undefined : '(binary bytes)';
    return differences(normal(recorded.data), normal(given.data), 1)[0];
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
