// The rules of the values serve's flags and a program's options (gatehouse/testing's) give the gateway, checked alike: each check answers what is wrong with a value, or null.
import { parsePath } from '../providers/replay/json-paths.ts';
import { MAX_REPLAY_SPEED } from '../providers/replay/limits.ts';

/** The longest duration an option may name, in ms (a Node timer's limit). */
export const MAX_DURATION_MS = 2 ** 31 - 1;

/** What is wrong with `value` as a whole number from `min` to `max`, or null. */
export function wholeNumberProblem(value: number, min: number, max: number): string | null {
  return Number.isInteger(value) && value >= min && value <= max ? null : `must be a whole number from ${min} to ${max}`;
}

/** What is wrong with `value` as a replay speed (`--replay-speed`), or null. */
export function replaySpeedProblem(value: number): string | null {
  return Number.isFinite(value) && value >= 0 && value <= MAX_REPLAY_SPEED
    ? null
    : `must be a number from 0 (as fast as possible) to ${MAX_REPLAY_SPEED}`;
}

/** What is wrong with `value` as one of `choices`, or null. */
export function choiceProblem(value: unknown, choices: readonly string[]): string | null {
  return typeof value === 'string' && choices.includes(value) ? null : `must be one of ${choices.join(', ')}`;
}

/**
 * What is wrong with `entry` as a JSON path of `--replay-ignore` and `--record-redact` (with `headers`, a plain name is a
 * header name, as `--record-redact` takes), or null.
 */
export function jsonPathProblem(entry: string, headers: boolean): string | null {
  if (headers && !/^\$|[.[]/.test(entry)) return null;
  try {
    parsePath(entry);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}
