// The gateway's one documented token estimate: words and punctuation marks, plus a small overhead per turn.
import { checkRequestSchemas } from './schema-limits.ts';
import { nextTokenEnd } from './token-scan.ts';
import type { ChatRequest } from './chat.ts';

/**
 * One token per run of letters/digits (a "word") and one per other visible character (punctuation, symbols, emoji);
 * whitespace is free. `"Hello, world!"` is 4 tokens. Matches `streamPieces`, which yields one piece per token.
 * The specification of the estimate: `countTokens` and `streamPieces` find the same tokens without running it
 * (`token-scan.ts`), since a regular expression overflows its stack on an unbroken word of millions of characters.
 */
export const TOKEN_PATTERN = /[\p{L}\p{N}\p{M}_]+|[^\s\p{L}\p{N}\p{M}_]/gu;

/** Tokens added per conversation turn (role and framing), as real chat formats do. */
export const TURN_OVERHEAD = 3;

/** Tokens added once per request (the reply's priming). */
export const REQUEST_OVERHEAD = 3;

/** The number of tokens in `text` per the estimate above (the matches of `TOKEN_PATTERN`): one linear pass, whatever the text. */
export function countTokens(text: string): number {
  let count = 0;
  for (let end = nextTokenEnd(text, 0); end >= 0; end = nextTokenEnd(text, end)) count += 1;
  return count;
}

/**
 * Input tokens of a neutral chat request: every turn's text (+ its tool calls' names and arguments) plus
 * TURN_OVERHEAD per turn, the system text as one more turn, each tool's name, description and JSON parameters,
 * the JSON schema of a json_schema format, and REQUEST_OVERHEAD. Schemas too deep or too large are refused first.
 */
export function countRequestTokens(req: ChatRequest): number {
  checkRequestSchemas(req);
  let total = REQUEST_OVERHEAD;
  if (req.system !== undefined && req.system !== '') total += TURN_OVERHEAD + countTokens(req.system);
  for (const turn of req.turns) {
    total += TURN_OVERHEAD + countTokens(turn.text);
    if (turn.role === 'assistant') {
      for (const call of turn.toolCalls ?? []) total += countTokens(call.name) + countTokens(call.arguments);
    }
  }
  for (const tool of req.tools ?? []) {
    total += countTokens(tool.name) + countTokens(tool.description ?? '') + countTokens(JSON.stringify(tool.parameters));
  }
  if (req.format?.type === 'json_schema') total += countTokens(JSON.stringify(req.format.schema));
  return total;
}

/**
 * The input estimate of a request sent on as it is (relay): its schemas are checked now, so one past their limits is
 * refused before it goes out, as a simulated one is; its tokens are counted only when asked (the upstream's own usage
 * carries the figure, but for a stream cut short), and once.
 */
export function relayInputEstimate(req: ChatRequest): () => number {
  checkRequestSchemas(req);
  let counted: number | undefined;
  return () => (counted ??= countRequestTokens(req));
}

/** Alias of countRequestTokens, the name the protocol routes use for "count tokens" endpoints. */
export const estimateInputTokens = countRequestTokens;

/** Input tokens a reported count may hold per byte of its input as received: no tokenizer makes more than one token of a byte. */
export const INPUT_TOKENS_PER_BYTE = 1;

/** Input tokens a reported count may hold beyond its input's own: the framing and instructions an upstream adds. */
export const INPUT_SLACK_TOKENS = 4_096;
