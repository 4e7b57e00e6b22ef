// The documented price table of simulated models, in currency units (USD) per million tokens or per unit of work.

/** Price of one model: per million input and output tokens, plus a flat price per call (images, 3D tasks, …). */
export interface Price {
  inputPerMillion: number;
  outputPerMillion: number;
  perCall: number;
}

/** The price table; README.md shows the same numbers. Any model name not listed costs as `default`. */
export const PRICES: Record<string, Price> = {
  default: { inputPerMillion: 0.5, outputPerMillion: 1.5, perCall: 0 },
  'sim-image': { inputPerMillion: 0, outputPerMillion: 0, perCall: 0.02 },
  'sim-3d': { inputPerMillion: 1, outputPerMillion: 2, perCall: 0.2 },
  'sim-chat': { inputPerMillion: 1, outputPerMillion: 3, perCall: 0 },
  'sim-echo': { inputPerMillion: 0.1, outputPerMillion: 0.1, perCall: 0 },
};

export function priceOf(model: string): Price {
  return PRICES[model] ?? PRICES['default']!;
}

/** The amount, in micro-units, of a call with these token counts on `model`. */
export function amountMicros(model: string, inputTokens: number, outputTokens: number): number {
  const price = priceOf(model);
  return Math.round(inputTokens * price.inputPerMillion + outputTokens * price.outputPerMillion + price.perCall * 1_000_000);
}
