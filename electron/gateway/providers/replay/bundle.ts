// The bundle of a call a cassette answers: the recorded bytes passed through as a relay's would be (same protocol and path), or, for chat recorded through another protocol, the neutral answer the caller's codec renders.
import type { HttpCassette } from '../../../../shared/cassette.ts';
import type { CallContext, PassthroughProvider, ProviderBundle, RelayedUsage } from '../types.ts';
import { cassetteChat, renderable } from './chat.ts';
import { playBody, type Playback } from './playback.ts';

/** The bundle answering `call` from `cassette` (file `file`); `fallback` keeps the capabilities a cassette has no part in (the catalogue, counting). */
export function replayBundle(
  cassette: HttpCassette,
  file: string,
  call: CallContext,
  fallback: ProviderBundle,
  playback: Playback,
): ProviderBundle {
  const sameWire = cassette.recording.protocol === call.protocol && cassette.request.path === call.path;
  const chat = renderable(cassette.recording.protocol) ? cassetteChat(cassette, file, playback, fallback.chat) : fallback.chat;
  return {
    ...fallback,
    mode: 'relay',
    chat,
    ...(sameWire && { passthrough: replayPassthrough(cassette, file, playback) }),
  };
}

/** The recorded answer as an upstream's: status, headers, the body paced, and the usage recorded once the body ended. */
function replayPassthrough(cassette: HttpCassette, file: string, playback: Playback): PassthroughProvider {
  return {
    async forward(_request, call) {
      let bytes = 0;
      let settle: (usage: RelayedUsage | null) => void = () => {};
      const usage = new Promise<RelayedUsage | null>((resolve) => (settle = resolve));
      const recorded = cassette.usage;
      const ok = cassette.response.status < 300;
      const responseId = call.protocol === 'responses' && ok ? responseIdOf(cassette) : undefined;
      async function* body(): AsyncGenerator<Uint8Array> {
        try {
          for await (const piece of playBody(cassette, file, playback, call.signal)) {
            bytes += piece.length;
            yield piece;
          }
        } finally {
          settle(
            ok && recorded
              ? {
                  inputTokens: recorded.inputTokens,
                  outputTokens: recorded.outputTokens,
                  delivered: { tokens: recorded.outputTokens },
                  answerBytes: bytes,
                  ...(responseId !== undefined && { responseId }),
                }
              : null,
          );
        }
      }
      // A Responses id is remembered as the replay's, so a follow-up naming it (`previous_response_id`) replays too.
      return {
        status: cassette.response.status,
        headers: cassette.response.headers,
        body: body(),
        usage,
        ...(responseId !== undefined && { channelId: REPLAY_CHANNEL }),
      };
    },
  };
}

/** The channel id a replayed Responses id is remembered under (no channel is asked: the next call replays too). */
export const REPLAY_CHANNEL = 'replay';

/** The Responses id a recorded answer created (its JSON `id`, or the stream's first `resp_…` id). */
function responseIdOf(cassette: HttpCassette): string | undefined {
  const body = cassette.response.body;
  const text =
    body && 'text' in body
      ? body.text
      : cassette.response.events
          ?.slice(0, 3)
          .map((event) => event.data)
          .join('');
  return text === undefined ? undefined : /"id"\s*:\s*"(resp_[A-Za-z0-9_-]{1,200})"/.exec(text)?.[1];
}
