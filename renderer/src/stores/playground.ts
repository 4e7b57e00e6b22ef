// The chat playground: model list, settings, a streamed reply with stop, and the raw request and response.
import { create } from 'zustand';
import {
  buildChatRequest,
  preferredModel,
  readAnswer,
  readStreamStep,
  type ChatFormat,
  type ChatSettings,
  type PlaygroundTurn,
  type WireRequest,
} from '../api/chat-formats.ts';
import { errorOfResponse, isAbort, send } from '../api/http.ts';
import { replyStats } from '../api/reply-stats.ts';
import { readSse } from '../api/sse.ts';
import { messageOf } from './storage.ts';

export interface PlaygroundState extends ChatSettings {
  format: ChatFormat;
  models: string[];
  modelsLoading: boolean;
  modelsError: string | null;
  turns: PlaygroundTurn[];
  input: string;
  streaming: boolean;
  /** The reply as it streams in. */
  output: string;
  /** True when the user stopped the last reply. */
  stopped: boolean;
  error: string | null;
  /** The last request as sent (the key masked) and the raw bytes that came back. */
  lastRequest: WireRequest | null;
  rawResponse: string;
  set(
    change: Partial<
      Pick<
        PlaygroundState,
        'format' | 'model' | 'system' | 'temperature' | 'maxTokens' | 'stream' | 'input' | 'pace' | 'latencyMs' | 'fault'
      >
    >,
  ): void;
  loadModels(apiKey: string): Promise<void>;
  send(apiKey: string): Promise<void>;
  stop(): void;
  clear(): void;
}

export interface PlaygroundDeps {
  /** Origin of the gateway ('' for the page's own origin). */
  apiBase: string;
  fetch?: typeof fetch;
  /** The clock a reply's latency and rate are measured with (milliseconds); performance.now() unless told. */
  now?: () => number;
}

/** Shows a request without its secret. */
export function maskKey(request: WireRequest, apiKey: string): WireRequest {
  const headers = Object.fromEntries(
    Object.entries(request.headers).map(([name, value]) => [name, value.replace(apiKey, `${apiKey.slice(0, 8)}…`)]),
  );
  return { ...request, headers };
}

export function createPlaygroundStore(deps: PlaygroundDeps) {
  const fetchImpl = deps.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  const now = deps.now ?? (() => performance.now());
  let controller: AbortController | undefined;

  return create<PlaygroundState>((set, get) => ({
    format: 'openai',
    model: '',
    system: '',
    temperature: 0.7,
    maxTokens: 512,
    stream: true,
    pace: 0,
    latencyMs: 0,
    fault: '',
    models: [],
    modelsLoading: false,
    modelsError: null,
    turns: [],
    input: '',
    streaming: false,
    output: '',
    stopped: false,
    error: null,
    lastRequest: null,
    rawResponse: '',

    set(change) {
      set(change);
      if (change.format && !change.model) set({ model: preferredModel(change.format, get().models) ?? get().model });
    },

    async loadModels(apiKey) {
      set({ modelsLoading: true });
      try {
        const response = await send(fetchImpl, `${deps.apiBase}/v1/models`, { headers: { authorization: `Bearer ${apiKey}` } });
        if (!response.ok) throw await errorOfResponse(response);
        const list = (await response.json()) as { data?: Array<{ id?: unknown }> };
        const models = (list.data ?? []).map((item) => item.id).filter((id): id is string => typeof id === 'string');
        const model = models.includes(get().model) ? get().model : (preferredModel(get().format, models) ?? '');
        set({ models, model, modelsLoading: false, modelsError: null });
      } catch (error) {
        set({ modelsLoading: false, modelsError: messageOf(error) });
      }
    },

    async send(apiKey) {
      const { input, format, streaming, stream } = get();
      if (streaming || input.trim() === '') return;
      const turns: PlaygroundTurn[] = [...get().turns, { role: 'user', text: input.trim() }];
      const request = buildChatRequest(format, get(), turns, apiKey);
      controller = new AbortController();
      set({
        turns,
        input: '',
        streaming: true,
        output: '',
        stopped: false,
        error: null,
        rawResponse: '',
        lastRequest: maskKey(request, apiKey),
      });
      let output = '';
      let failure: string | null = null;
      let outputTokens: number | null = null;
      const sentAt = now();
      let firstTextAt: number | null = null;
      /** Takes in one event or a whole answer. */
      const take = (step: ReturnType<typeof readStreamStep>) => {
        if (step.error) failure = step.error;
        if (step.outputTokens !== undefined) outputTokens = step.outputTokens;
        if (step.text) {
          firstTextAt ??= now();
          output += step.text;
          set({ output });
        }
      };
      try {
        const response = await send(fetchImpl, `${deps.apiBase}${request.path}`, {
          method: 'POST',
          headers: request.headers,
          body: JSON.stringify(request.body),
          signal: controller.signal,
        });
        if (!response.ok || !response.body) throw await errorOfResponse(response);
        if (stream)
          await readSse(
            response.body,
            (message) => take(readStreamStep(format, message)),
            (raw) => set({ rawResponse: get().rawResponse + raw }),
          );
        else {
          const raw = await response.text();
          set({ rawResponse: raw });
          take(readAnswer(format, JSON.parse(raw) as Record<string, unknown>));
        }
      } catch (error) {
        if (!isAbort(error)) failure = messageOf(error);
      }
      const stopped = controller.signal.aborted;
      controller = undefined;
      // A request that failed before any text gives the user their message back to retry.
      const lost = output === '' && failure !== null;
      set({
        streaming: false,
        stopped,
        error: failure,
        output: '',
        turns:
          output !== ''
            ? [
                ...turns,
                { role: 'assistant', text: output, stats: replyStats(outputTokens, { sentAt, firstTextAt, endedAt: now() }, stream) },
              ]
            : lost
              ? turns.slice(0, -1)
              : turns,
        ...(lost && { input: turns.at(-1)!.text }),
      });
    },

    stop() {
      controller?.abort();
    },

    clear() {
      controller?.abort();
      set({ turns: [], output: '', error: null, stopped: false, rawResponse: '', lastRequest: null });
    },
  }));
}

export type PlaygroundStore = ReturnType<typeof createPlaygroundStore>;
