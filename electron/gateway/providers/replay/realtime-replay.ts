// Replays realtime sessions: the model's recorded sessions are the candidates, the client's frames choose among them (event ids and the replay's ignored paths aside), and the player sends the upstream's frames as recorded.
import { CassetteError, type RealtimeCassette } from '../../../../shared/cassette.ts';
import type { CassetteShelf, FoundCassette, RealtimeRelayProvider, RecordedCall } from '../types.ts';
import { canonicalJson } from './normal.ts';
import { bytesOf, refusedCassette } from './work-replay.ts';
import { RealtimePlayer, type FrameDiffer, type PlayedFrame, type PlayedSession, type ReplayWait } from './realtime-player.ts';

/** The call every realtime session of `model` is recorded under: the opening names only the model, the frames do the rest. */
export function realtimeCall(model: string): RecordedCall {
  return { protocol: 'realtime', method: 'GET', path: '/v1/realtime', endpoint: '/v1/realtime', model, stream: false };
}

/** Client event fields that differ between runs of the same session and are never matched on. */
const VOLATILE_EVENT_FIELDS = ['event_id'];

/**
 * The relay of a session `found` answers (the model's recorded sessions, the next of its sequence first): each is read
 * when the session opens (a damaged one refuses the session naming its file), then played at `timing`'s speed.
 */
export function replayRealtime(
  found: FoundCassette[],
  shelf: CassetteShelf,
  timing: { speed: number; wait?: ReplayWait },
): RealtimeRelayProvider {
  return {
    open: async (client, request, call) => {
      // Frames the client sends while the cassettes are read wait in the socket.
      client.pause();
      let sessions: PlayedSession[];
      try {
        sessions = await Promise.all(found.map((each) => played(each, shelf)));
      } catch (error) {
        client.resume();
        refusedCassette(error);
      }
      const first = found[0]!;
      call.noteReplay?.({ file: first.file, sequence: first.sequence, recordedAt: sessions[0]!.recordedAt });
      const differ = frameDiffer(shelf, request.model);
      new RealtimePlayer(client, sessions, { request, ...timing, differ, model: request.model }).start();
      client.resume();
    },
  };
}

/** A recorded session read for playing: its frames' payloads (blobs read) and, when the upstream closed it, how. */
async function played(found: FoundCassette, shelf: CassetteShelf): Promise<PlayedSession> {
  const cassette = (await found.load()) as RealtimeCassette;
  const frames: PlayedFrame[] = [];
  for (const [index, frame] of cassette.frames.entries()) {
    const at = { from: frame.from, atMs: frame.atMs };
    if (frame.text !== undefined) frames.push({ ...at, data: frame.text, binary: false });
    else if (frame.textBlob) frames.push({ ...at, data: (await bytesOf(shelf.blob(frame.textBlob))).toString('utf8'), binary: false });
    else if (frame.binary && 'base64' in frame.binary)
      frames.push({ ...at, data: Buffer.from(frame.binary.base64, 'base64'), binary: true });
    else if (frame.binary && 'blob' in frame.binary)
      frames.push({ ...at, data: await bytesOf(shelf.blob(frame.binary.blob)), binary: true });
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
    if (typeof event === 'object' && event !== null && !Array.isArray(event))
      for (const field of VOLATILE_EVENT_FIELDS) delete (event as Record<string, unknown>)[field];
    return (shelf.requestOf({ ...realtimeCall(model), body: event }).normal as { body?: unknown }).body;
  };
  return (recorded, given) => {
    if (recorded.binary !== given.binary) return recorded.binary ? '(a binary frame was recorded)' : '(a text frame was recorded)';
    if (recorded.binary) return Buffer.compare(recorded.data as Buffer, given.data) === 0 ? undefined : '(binary bytes)';
    return firstDifference(normal(recorded.data), normal(given.data), '');
  };
}

/** The path of the first place two JSON values differ (`session.instructions`, `item.content[0].text`), or undefined when they are equal. */
export function firstDifference(recorded: unknown, given: unknown, at: string): string | undefined {
  if (canonicalJson(recorded) === canonicalJson(given)) return undefined;
  const here = at || '(the whole event)';
  if (Array.isArray(recorded) && Array.isArray(given)) {
    if (recorded.length !== given.length) return `${here} (length ${given.length}, recorded ${recorded.length})`;
    for (let index = 0; index < recorded.length; index++) {
      const found = firstDifference(recorded[index], given[index], `${at}[${index}]`);
      if (found) return found;
    }
    return here;
  }
  if (isObject(recorded) && isObject(given)) {
    for (const name of [...new Set([...Object.keys(recorded), ...Object.keys(given)])].sort()) {
      const found = firstDifference(recorded[name], given[name], at ? `${at}.${name}` : name);
      if (found) return found;
    }
  }
  return here;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
