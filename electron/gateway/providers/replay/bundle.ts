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
                  deliveredTokens: recorded.outputTokens,
                  answerBytes: bytes,
                }
              : null,
          );
        }
      }
      return { status: cassette.response.status, headers: cassette.response.headers, body: body(), usage };
    },
  };
}
