// Test helper: the answers a scripted upstream sends as an OpenAI-compatible server would (a whole chat completion).

/** What may differ between tests' chat completions besides model and text: id, created and the token counts. */
export interface CompletionOptions {
  id?: string;
  created?: number;
  /** Prompt and completion tokens; the total is their sum. */
  tokens?: readonly [number, number];
}

/** A chat completion of `model` whose one choice answers `content` and stops, with its usage. */
export function chatCompletion(
  model: string,
  content: string,
  { id = 'chatcmpl-up', created = 1, tokens = [3, 2] }: CompletionOptions = {},
) {
  const [prompt, completion] = tokens;
  return {
    id,
    object: 'chat.completion',
    created,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
  };
}
