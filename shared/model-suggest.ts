// The model a coding tool is set up with, read from the model list the Models page shows (never a hard-coded name): used by Connect in the gateway and the console.
import type { ModelEntry } from './models.ts';

/** What a suggestion reads of each listed model. */
export type ModelChoice = Pick<ModelEntry, 'id' | 'chat' | 'servedBy'>;

/**
 * The first chat model a channel of the tool's own family serves; else the first a channel of another family serves (the
 * gateway translates); else the first simulated chat model. Null when the list has no chat model.
 */
export function suggestModel(models: readonly ModelChoice[], family: 'anthropic' | 'openai' | 'gemini'): string | null {
  const chat = models.filter((model) => model.chat);
  const relayed = (model: ModelChoice) => model.servedBy.some((server) => server.kind === 'channel');
  const own = chat.find((model) => model.servedBy.some((server) => server.kind === 'channel' && server.upstream === family));
  return (own ?? chat.find(relayed) ?? chat[0])?.id ?? null;
}
