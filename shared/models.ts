// Contract of the console's Models page: every model the gateway answers for, what it does, its price and where it is served.

/** The price of a model as the console shows it (currency units, USD). */
export type ModelPrice =
  | { kind: 'tokens'; inputPerMillion: number; outputPerMillion: number; perCall: number }
  | { kind: 'image'; small: number; standard: number; large: number }
  | { kind: 'speech'; perMillionCharacters: number }
  | { kind: 'transcription'; perMinute: number };

/** Where calls naming a model go. */
export type ModelServer = { kind: 'simulator' } | { kind: 'channel'; channel: string; upstream: 'openai' | 'anthropic' | 'gemini' };

/** One model of the catalogue. */
export interface ModelEntry {
  id: string;
  displayName: string;
  /** What the model is for. */
  capability: string;
  /** True for chat models (chat, completions, messages, generateContent, responses): the Playground lists these. */
  chat: boolean;
  /** The model an alias stands for, or null. */
  aliasOf: string | null;
  price: ModelPrice;
  /** Each channel that serves it by name, or the simulator. */
  servedBy: ModelServer[];
}
