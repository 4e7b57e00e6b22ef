// Test helper for translation: a front Gatehouse whose one channel speaks a chosen upstream wire, pointing at a second Gatehouse in simulate mode, and the three official SDKs aimed at the front.
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import type { ChatWireName } from '../../shared/channels.ts';
import { memoryChannels, type TestChannel } from './channels.ts';
import { startGateway, type TestGateway } from './gateway.ts';
import { journalEntries, settle } from './relay.ts';

/** The model names the rig's channel serves: `tr-echo` (the upstream's sim-echo), `tr-chat` (sim-chat), and `tr-*` for any other name through `*`. */
export const RIG_MODELS = ['tr-echo=sim-echo', 'tr-chat=sim-chat', '*'];

export interface TranslationRig {
  up: TestGateway;
  front: TestGateway;
  openai: OpenAI;
  anthropic: Anthropic;
  gemini: GoogleGenAI;
  /** Points the front's one channel at the upstream in `wire` (an `openai` channel with `api` chat or responses, `anthropic` or `gemini`). */
  speak(wire: ChatWireName, extra?: Partial<TestChannel>): void;
  stop(): Promise<void>;
}

/** The tool schema the translation tests call: a city, and a number of days within bounds. */
export const WEATHER = {
  type: 'object',
  properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1, maximum: 7 } },
  required: ['city'],
};

/** The last request body the upstream received on `where` (its journal settles first). */
export async function lastUpstreamBody(up: TestGateway, where: { path: string } | { prefix: string }): Promise<any> {
  await settle();
  const [entry] = await journalEntries(up, where);
  return JSON.parse(entry.request.text);
}

/** Starts the upstream and the front; the channel speaks `wire` until `speak` changes it. */
export async function startTranslationRig(wire: ChatWireName): Promise<TranslationRig> {
  const channels: TestChannel[] = [];
  const up = await startGateway();
  const front = await startGateway({ channels: memoryChannels(channels) });
  const speak = (next: ChatWireName, extra: Partial<TestChannel> = {}) => {
    channels.splice(0, channels.length, { ...channelOf(next, up), ...extra });
  };
  speak(wire);
  return {
    up,
    front,
    openai: new OpenAI({ baseURL: `${front.url}/v1`, apiKey: front.token, maxRetries: 0 }),
    anthropic: new Anthropic({ baseURL: front.url, apiKey: front.token, maxRetries: 0 }),
    gemini: new GoogleGenAI({ apiKey: front.token, httpOptions: { baseUrl: front.url, apiVersion: 'v1beta' } }),
    speak,
    async stop() {
      await front.stop();
      await up.stop();
    },
  };
}

function channelOf(wire: ChatWireName, up: TestGateway): TestChannel {
  const common = { name: `${wire}-upstream`, key: up.token, models: RIG_MODELS };
  switch (wire) {
    // The upstream Gatehouse reads every OpenAI field as OpenAI does: its channel has the `openai` profile.
    case 'openai-chat':
      return { ...common, kind: 'openai', api: 'chat', compat: 'openai', baseUrl: `${up.url}/v1` };
    case 'openai-responses':
      return { ...common, kind: 'openai', api: 'responses', compat: 'openai', baseUrl: `${up.url}/v1` };
    case 'anthropic':
      return { ...common, kind: 'anthropic', baseUrl: up.url };
    case 'gemini':
      return { ...common, kind: 'gemini', baseUrl: up.url };
  }
}
