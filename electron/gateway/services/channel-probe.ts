// The test call of a channel: one minimal real chat (a service channel: one listing), timed, its answer's first words shown, recorded in its health.
import { outputLimitField } from '../../../shared/channel-presets.ts';
import type { ChannelTestResult, ChannelTestRow } from '../../../shared/channels.ts';
import { hideSecret } from '../../../shared/channels.ts';
import { GatewayError, invalid } from '../errors.ts';
import { signedJsonHeaders, splitAccessKey } from '../protocols/volcengine/signature.ts';
import type { RelayChannel, ServiceChannel } from '../providers/types.ts';
import { listUpstreamModels } from './channel-model-fetch.ts';
import { callUpstream, errorMessageOf, upstreamHeaders, type UpstreamReply } from './channel-upstream.ts';
import type { ChannelsService } from './channels.ts';

const MESSAGE_LIMIT = 300;

/** A service channel's test: platform lists one portrait group; volcengine lists one Ark asset group (signed, service `ark`). */
function serviceProbeRequest(channel: ServiceChannel): { url: string; init: RequestInit } {
  const headers: Record<string, string> = { ...channel.headers, accept: 'application/json' };
  if (channel.kind === 'platform') {
    if (channel.key !== null) headers['authorization'] = `Bearer ${channel.key}`;
    return { url: `${channel.baseUrl}/v1/portrait/groups?page_size=1`, init: { method: 'GET', headers } };
  }
  const url = new URL(`${channel.baseUrl}/`);
  url.searchParams.set('Action', 'ListAssetGroups');
  url.searchParams.set('Version', '2024-01-01');
  const body = JSON.stringify({ PageNumber: 1, PageSize: 1, ProjectName: channel.project });
  const pair = splitAccessKey(channel.key);
  if (pair) Object.assign(headers, signedJsonHeaders(url, body, { ...pair, region: channel.region, service: 'ark' }, new Date()));
  return { url: url.href, init: { method: 'POST', headers, body } };
}

/** The output budget of a test call: enough for a few words, small enough to cost next to nothing. */
export const TEST_MAX_TOKENS = 16;
/** What a test call asks. */
const TEST_PROMPT = 'Say hello in a few words.';
/** Longest start of the answer a test reports. */
const ANSWER_LIMIT = 80;
/** Largest test answer read. */
export const TEST_ANSWER_BYTES_LIMIT = 1024 * 1024;

/** The minimal chat call a test sends, in the channel's wire with its output-limit field (see outputLimitField). */
function chatRequest(channel: RelayChannel): { url: string; body: unknown } {
  const model = channel.upstreamModel;
  const messages = [{ role: 'user', content: TEST_PROMPT }];
  switch (channel.kind) {
    case 'openai':
      if (channel.api === 'responses')
        return { url: `${channel.baseUrl}/responses`, body: { model, input: TEST_PROMPT, max_output_tokens: TEST_MAX_TOKENS } };
      return {
        url: `${channel.baseUrl}/chat/completions`,
        body: { model, messages, [outputLimitField('openai', channel.compat)]: TEST_MAX_TOKENS },
      };
    case 'anthropic':
      return { url: `${channel.baseUrl}/v1/messages`, body: { model, max_tokens: TEST_MAX_TOKENS, messages } };
    case 'gemini':
      return {
        url: `${channel.baseUrl}/v1beta/models/${encodeURIComponent(model)}:generateContent`,
        body: { contents: [{ role: 'user', parts: [{ text: TEST_PROMPT }] }], generationConfig: { maxOutputTokens: TEST_MAX_TOKENS } },
      };
  }
}

/** The text of a chat answer in any of the wires (chat completions, Responses, Anthropic, Gemini); '' when it holds none. */
export function answerTextOf(text: string): string {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return '';
  }
  const parts: unknown[] = [];
  const choice = (body['choices'] as { message?: { content?: unknown; reasoning_content?: unknown } }[] | undefined)?.[0];
  if (choice) parts.push(choice.message?.content || choice.message?.reasoning_content);
  for (const item of (body['output'] as { content?: { text?: unknown }[] }[] | undefined) ?? [])
    parts.push(...(item.content ?? []).map((c) => c.text));
  if (body['type'] === 'message') for (const block of (body['content'] as { text?: unknown }[] | undefined) ?? []) parts.push(block.text);
  const candidate = (body['candidates'] as { content?: { parts?: { text?: unknown }[] } }[] | undefined)?.[0];
  for (const part of candidate?.content?.parts ?? []) parts.push(part.text);
  const joined = parts
    .filter((part): part is string => typeof part === 'string')
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  return joined.length > ANSWER_LIMIT ? `${joined.slice(0, ANSWER_LIMIT)}…` : joined;
}

/** A test that failed for `reply` (no answer, or a status outside 2xx), the key hidden; undefined when the upstream answered 2xx. */
function failureOf(reply: UpstreamReply, key: string | null): ChannelTestResult | undefined {
  const scrub = (text: string) => hideSecret(text, key).slice(0, MESSAGE_LIMIT);
  if (!reply.ok) return { ok: false, latency_ms: reply.latencyMs, message: scrub(reply.error) };
  if (reply.status >= 200 && reply.status <= 299) return undefined;
  return {
    ok: false,
    latency_ms: reply.latencyMs,
    message: scrub(`HTTP ${reply.status}: ${errorMessageOf(reply.text) || reply.statusText}`),
  };
}

/** Sends the test chat within the channel's timeout; never throws, never reports the key. */
async function chatProbe(channel: RelayChannel, fetchImpl?: typeof fetch): Promise<ChannelTestResult> {
  const { url, body } = chatRequest(channel);
  const reply = await callUpstream(
    url,
    { method: 'POST', headers: { ...upstreamHeaders(channel), 'content-type': 'application/json' }, body: JSON.stringify(body) },
    { timeoutMs: channel.timeoutMs, limit: TEST_ANSWER_BYTES_LIMIT, key: channel.key, ...(fetchImpl && { fetchImpl }) },
  );
  const model = channel.upstreamModel;
  const failed = failureOf(reply, channel.key);
  if (failed || !reply.ok) return { ...failed!, model };
  const answer = hideSecret(answerTextOf(reply.text), channel.key);
  return { ok: true, latency_ms: reply.latencyMs, message: 'ok', model, answer };
}

/** Sends a service channel's test request within its timeout; never throws, never reports the key. */
async function serviceProbe(channel: ServiceChannel, fetchImpl?: typeof fetch): Promise<ChannelTestResult> {
  const { url, init } = serviceProbeRequest(channel);
  const limits = { timeoutMs: channel.timeoutMs, limit: TEST_ANSWER_BYTES_LIMIT, key: channel.key, ...(fetchImpl && { fetchImpl }) };
  const reply = await callUpstream(url, init, limits);
  const failed = failureOf(reply, channel.key);
  if (failed || !reply.ok) return failed!;
  const refusal = serviceRefusalOf(reply.text);
  if (refusal !== undefined)
    return { ok: false, latency_ms: reply.latencyMs, message: hideSecret(refusal, channel.key).slice(0, MESSAGE_LIMIT) };
  return { ok: true, latency_ms: reply.latencyMs, message: 'ok' };
}

/** A refusal in a 200 answer: a portrait envelope with `success: false`, or a Volcengine `ResponseMetadata.Error`. */
function serviceRefusalOf(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as {
      success?: unknown;
      message?: unknown;
      ResponseMetadata?: { Error?: { Code?: unknown; Message?: unknown } };
    };
    if (body.success === false) return String(body.message ?? 'refused');
    const error = body.ResponseMetadata?.Error;
    if (error && typeof error.Code === 'string' && error.Code !== '') return `${error.Code}: ${String(error.Message ?? '')}`;
  } catch {
    // Not JSON: judged by its status.
  }
  return undefined;
}

/**
 * Tests a channel (enabled or not) with one minimal real call and records the outcome in its health: a chat channel is
 * sent a short chat (`model` as callers name it, renamed as the channel says; without one, the first model the channel
 * names, else the first its upstream lists); a service channel lists one portrait or asset group.
 */
export async function testChannel(
  channels: ChannelsService,
  nameOrId: string,
  model?: string,
  fetchImpl?: typeof fetch,
): Promise<ChannelTestResult> {
  const summary = channels.find(nameOrId);
  if (summary && (summary.kind === 'platform' || summary.kind === 'volcengine')) {
    const service = await channels.serviceChannel(summary.id).catch((error: unknown) => {
      throw new GatewayError('unavailable', (error as Error).message);
    });
    return recorded(channels, summary.id, await serviceProbe(service!, fetchImpl));
  }
  let asked = model?.trim() || undefined;
  if (asked === undefined && summary)
    asked = summary.models
      .split(',')
      .map((entry) => entry.split('=')[0]!.trim())
      .find((name) => name !== '*');
  if (asked === undefined) {
    // A channel serving every model (`*`) is tested with the first model its upstream lists.
    const { channel } = await channels.target(nameOrId);
    try {
      asked = (await listUpstreamModels(channel, fetchImpl))[0];
    } catch (error) {
      return recorded(channels, channel.id, { ok: false, latency_ms: 0, message: (error as Error).message });
    }
    if (asked === undefined)
      throw invalid(`channel "${channel.name}" names no model and its upstream lists none: name one to test (--model M)`, 'model');
  }
  const { channel } = await channels.target(nameOrId, asked);
  return recorded(channels, channel.id, await chatProbe(channel, fetchImpl));
}

/** Records a test's outcome in the channel's health and answers it. */
function recorded(channels: ChannelsService, channelId: string, result: ChannelTestResult): ChannelTestResult {
  channels.record(
    channelId,
    result.ok ? { ok: true, latencyMs: result.latency_ms } : { ok: false, latencyMs: result.latency_ms, error: result.message },
  );
  return result;
}

/** How many channels Test all tests at once. */
export const TEST_ALL_CONCURRENCY = 4;

/** Tests every channel, TEST_ALL_CONCURRENCY at a time, in list order (highest priority first); a test that cannot start is a failed row. */
export async function testAllChannels(channels: ChannelsService, fetchImpl?: typeof fetch): Promise<ChannelTestRow[]> {
  const list = channels.list();
  const rows: ChannelTestRow[] = new Array(list.length);
  let next = 0;
  const worker = async () => {
    while (next < list.length) {
      const index = next++;
      const item = list[index]!;
      const result = await testChannel(channels, item.id, undefined, fetchImpl).catch((error: unknown): ChannelTestResult => ({
        ok: false,
        latency_ms: 0,
        message: (error as Error).message,
      }));
      rows[index] = { channel_id: item.id, name: item.name, ...result };
    }
  };
  await Promise.all(Array.from({ length: Math.min(TEST_ALL_CONCURRENCY, list.length) }, worker));
  return rows;
}
