// The test call of a channel: one minimal real request to its upstream (a model list or a 1-token answer), timed and recorded in its health.
import type { ChannelTestResult } from '../../../shared/channels.ts';
import { hideSecret } from '../../../shared/channels.ts';
import { GatewayError, invalid } from '../errors.ts';
import { signedJsonHeaders, splitAccessKey } from '../protocols/volcengine/signature.ts';
import type { RelayChannel, ServiceChannel } from '../providers/types.ts';
import type { ChannelsService } from './channels.ts';

/** Version header every Anthropic call carries. */
const ANTHROPIC_VERSION = '2023-06-01';
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

/** The request a test sends: openai lists models (or asks a 1-token chat), anthropic asks a 1-token message, gemini lists models (or asks 1 token). */
function probeRequest(channel: RelayChannel | ServiceChannel): { url: string; init: RequestInit } {
  if (channel.kind === 'platform' || channel.kind === 'volcengine') return serviceProbeRequest(channel);
  const headers: Record<string, string> = { ...channel.headers, accept: 'application/json' };
  const model = channel.upstreamModel;
  const json = (url: string, body: unknown) => ({
    url,
    init: { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) },
  });
  switch (channel.kind) {
    case 'openai':
      if (channel.key !== null) headers['authorization'] = `Bearer ${channel.key}`;
      return model === ''
        ? { url: `${channel.baseUrl}/models`, init: { method: 'GET', headers } }
        : json(`${channel.baseUrl}/chat/completions`, { model, messages: [{ role: 'user', content: 'ping' }], max_tokens: 1 });
    case 'anthropic':
      if (channel.key !== null) headers['x-api-key'] = channel.key;
      headers['anthropic-version'] = ANTHROPIC_VERSION;
      return json(`${channel.baseUrl}/v1/messages`, { model, max_tokens: 1, messages: [{ role: 'user', content: 'ping' }] });
    case 'gemini':
      if (channel.key !== null) headers['x-goog-api-key'] = channel.key;
      return model === ''
        ? { url: `${channel.baseUrl}/v1beta/models`, init: { method: 'GET', headers } }
        : json(`${channel.baseUrl}/v1beta/models/${encodeURIComponent(model)}:generateContent`, {
            contents: [{ role: 'user', parts: [{ text: 'ping' }] }],
            generationConfig: { maxOutputTokens: 1 },
          });
  }
}

/** Sends the test request within the channel's timeout; never throws, never reports the key. */
export async function probe(channel: RelayChannel | ServiceChannel, fetchImpl: typeof fetch = fetch): Promise<ChannelTestResult> {
  const { url, init } = probeRequest(channel);
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), channel.timeoutMs);
  const scrub = (text: string) => hideSecret(text, channel.key).slice(0, MESSAGE_LIMIT);
  try {
    const response = await fetchImpl(url, { ...init, redirect: 'manual', signal: abort.signal });
    const latency = elapsed();
    const text = await response.text();
    const refusal = response.ok ? serviceRefusalOf(text) : undefined;
    if (refusal !== undefined) return { ok: false, latency_ms: latency, message: scrub(refusal) };
    if (response.ok) return { ok: true, latency_ms: latency, message: 'ok' };
    return { ok: false, latency_ms: latency, message: scrub(`HTTP ${response.status}: ${errorMessageOf(text) || response.statusText}`) };
  } catch (error) {
    const message = abort.signal.aborted
      ? `no answer within ${channel.timeoutMs} ms from ${url}`
      : `cannot reach ${url}: ${causeOf(error)}`;
    return { ok: false, latency_ms: elapsed(), message: scrub(message) };
  } finally {
    clearTimeout(timer);
  }
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

/** `error.message` of an OpenAI, Anthropic or Gemini error body, else the start of the text. */
function errorMessageOf(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    if (typeof body.error === 'object' && typeof body.error?.message === 'string') return body.error.message;
    if (typeof body.error === 'string') return body.error;
    if (typeof body.message === 'string') return body.message;
  } catch {
    // Not JSON: the text itself.
  }
  return text.trim().slice(0, 200);
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (cause && typeof cause.code === 'string') return cause.code;
  if (cause && typeof cause.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}

/**
 * Tests a channel (enabled or not) with one minimal call and records the outcome in its health. `model` (as callers
 * name it; renamed as the channel says) makes it a 1-token answer; anthropic needs one, taken from the channel's own
 * list when not given.
 */
export async function testChannel(
  channels: ChannelsService,
  nameOrId: string,
  model?: string,
  fetchImpl: typeof fetch = fetch,
): Promise<ChannelTestResult> {
  const summary = channels.find(nameOrId);
  if (summary && (summary.kind === 'platform' || summary.kind === 'volcengine')) {
    const service = await channels.serviceChannel(summary.id).catch((error: unknown) => {
      throw new GatewayError('unavailable', (error as Error).message);
    });
    const result = await probe(service!, fetchImpl);
    channels.record(
      summary.id,
      result.ok ? { ok: true, latencyMs: result.latency_ms } : { ok: false, latencyMs: result.latency_ms, error: result.message },
    );
    return result;
  }
  let asked = model?.trim() || undefined;
  if (asked === undefined && summary?.kind === 'anthropic') {
    const named = summary.models.split(',').map((entry) => entry.split('=')[0]!.trim());
    asked = named.find((name) => name !== '*');
    if (asked === undefined)
      throw invalid(
        `channel "${summary.name}" is an anthropic channel: its test sends a 1-token message, so name a model (--model M)`,
        'model',
      );
  }
  const { channel } = await channels.target(nameOrId, asked);
  const result = await probe(channel, fetchImpl);
  channels.record(
    channel.id,
    result.ok ? { ok: true, latencyMs: result.latency_ms } : { ok: false, latencyMs: result.latency_ms, error: result.message },
  );
  return result;
}
