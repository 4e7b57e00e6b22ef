// Test helper: the servers a channel test stands on: a gateway keeping channel keys in a file store, a second Gatehouse (simulating) as a keyed upstream, and an Ollama stand-in as a keyless local one.
import { openFileStore } from '../../electron/gateway/secrets/file-store.ts';
import { adminApi, startGateway, type JsonResponse, type TestGateway } from './gateway.ts';
import type { HostileUpstream } from './hostile-upstream.ts';
import { ollamaStandIn } from './ollama-stand-in.ts';

export interface ChannelStage {
  /** The gateway under test, its data (and the file store of channel keys) in the given folder. */
  server: TestGateway;
  /** A second Gatehouse (simulating) that stands in for OpenAI, Anthropic and Gemini; its API token is a channel's key. */
  upstream: TestGateway;
  /** The Ollama-like local server (no key). */
  ollama: HostileUpstream;
  /** The server's admin API (see `adminApi`). */
  admin: (method: string, path: string, body?: unknown) => Promise<JsonResponse>;
  /** Stops all three. */
  stop(): Promise<void>;
}

/** Starts the stage with the gateway's data in `dataDir`. */
export async function channelStage(dataDir: string): Promise<ChannelStage> {
  const server = await startGateway({ dataDir, secrets: openFileStore(dataDir) });
  const upstream = await startGateway();
  const ollama = await ollamaStandIn();
  return {
    server,
    upstream,
    ollama,
    admin: adminApi(server),
    async stop() {
      await server.stop();
      await upstream.stop();
      await ollama.close();
    },
  };
}
