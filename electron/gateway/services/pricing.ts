// The documented prices (the price table's defaults, which the owner may override: services/price-table.ts), in currency units (USD) per million tokens or per unit of work.

/** Price of one model: per million input and output tokens, plus a flat price per call (images, 3D tasks, …). */
export interface Price {
  inputPerMillion: number;
  outputPerMillion: number;
  perCall: number;
}

/**
 * The documented prices of token-billed calls (chat, embeddings, rerank, realtime, 3D); docs/endpoints.md shows the same numbers. Any model
 * name not listed costs as `default`. Images, speech and transcription are priced by MEDIA_PRICES instead. The owner's price table
 * (services/price-table.ts) starts from these and may change them.
 */
export const PRICES: Record<string, Price> = {
  default: { inputPerMillion: 0.5, outputPerMillion: 1.5, perCall: 0 },
  'sim-3d': { inputPerMillion: 1, outputPerMillion: 2, perCall: 0.2 },
  'sim-chat': { inputPerMillion: 1, outputPerMillion: 3, perCall: 0 },
  'sim-echo': { inputPerMillion: 0.1, outputPerMillion: 0.1, perCall: 0 },
  /** Realtime sessions: text and audio tokens alike (see realtime/usage.ts for how audio counts). */
  'sim-realtime': { inputPerMillion: 4, outputPerMillion: 16, perCall: 0 },
};

/** The documented price of `model` (the `default` row for a model not listed). */
export function priceOf(model: string): Price {
  return PRICES[model] ?? PRICES['default']!;
}

/** The amount, in micro-units, of a call with these token counts at `price`. */
export function amountAt(price: Price, inputTokens: number, outputTokens: number): number {
  return Math.round(inputTokens * price.inputPerMillion + outputTokens * price.outputPerMillion + price.perCall * 1_000_000);
}

/** The amount, in micro-units, of a call with these token counts on `model` at its documented price. */
export function amountMicros(model: string, inputTokens: number, outputTokens: number): number {
  return amountAt(priceOf(model), inputTokens, outputTokens);
}

/** Prices of media work (USD) charged per unit rather than per token; docs/endpoints.md shows the same numbers. */
export const MEDIA_PRICES = {
  /** Per generated or edited image of at most 512×512 pixels (by area), at most 1024×1024, or larger. */
  imageSmall: 0.016,
  imageStandard: 0.02,
  imageLarge: 0.04,
  /** Speech (`/v1/audio/speech`) per million input characters. */
  speechPerMillionCharacters: 15,
  /** Transcription and translation per minute of audio, prorated by the second (rounded up). */
  transcriptionPerMinute: 0.006,
} as const;

/** The amount, in micro-units, of one image of this size. */
export function imagePriceMicros(width: number, height: number): number {
  const area = width * height;
  const price = area <= 512 * 512 ? MEDIA_PRICES.imageSmall : area <= 1024 * 1024 ? MEDIA_PRICES.imageStandard : MEDIA_PRICES.imageLarge;
  return Math.round(price * 1_000_000);
}

/** The amount, in micro-units, of speaking `characters` characters. */
export function speechPriceMicros(characters: number): number {
  return Math.round(characters * MEDIA_PRICES.speechPerMillionCharacters);
}

/** The amount, in micro-units, of transcribing `seconds` of audio (whole seconds, rounded up). */
export function transcriptionPriceMicros(seconds: number): number {
  return Math.round((Math.ceil(seconds) * MEDIA_PRICES.transcriptionPerMinute * 1_000_000) / 60);
}
