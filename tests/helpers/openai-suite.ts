// Test helper: a describe-level gateway on port 0 with an official openai SDK client pointed at it (no retries).
import { after, before } from 'node:test';
import OpenAI from 'openai';
import type { GatewayConfig } from '../../electron/gateway/index.ts';
import { startGateway, type TestGateway } from './gateway.ts';

export interface OpenAISuite {
  readonly gw: TestGateway;
  readonly client: OpenAI;
}

/** Starts the gateway before the suite's tests and stops it after them. */
export function useOpenAIGateway(overrides: Partial<GatewayConfig> = {}): OpenAISuite {
  let gw: TestGateway | undefined;
  let client: OpenAI | undefined;
  before(async () => {
    gw = await startGateway(overrides);
    client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.token, maxRetries: 0 });
  });
  after(() => gw?.stop());
  return {
    get gw() {
      return gw!;
    },
    get client() {
      return client!;
    },
  };
}
