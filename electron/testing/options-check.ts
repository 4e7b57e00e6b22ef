// startGatehouse's options checked before anything starts, by the rules serve checks its flags' values with: a wrong value throws a TypeError naming the option and what it takes (an option of a folder not given is left alone, as before: a suite may switch between recording and replaying).
import { REPLAY_MISS_MODES } from '../../shared/cassette.ts';
import { checkAliasMap } from '../../shared/model-aliases.ts';
import { UNROUTED_POLICIES } from '../../shared/settings.ts';
import {
  choiceProblem,
  jsonPathProblem,
  MAX_DURATION_MS,
  replaySpeedProblem,
  wholeNumberProblem,
} from '../gateway/options/given-values.ts';
import type { StartGatehouseOptions } from './index.ts';

/** Throws a TypeError for the first option of `options` that is wrong; `startGatehouse` calls it before it starts anything. */
export function checkStartOptions(options: StartGatehouseOptions): void {
  const refuse = (name: string, problem: string | null, value: unknown) => {
    if (problem !== null) throw new TypeError(`startGatehouse: ${name} ${problem}; got ${shown(value)}`);
  };
  for (const name of ['simReviewMs', 'sim3dMs'] as const) {
    const value = options[name];
    if (value !== undefined) refuse(name, wholeNumberProblem(value, 0, MAX_DURATION_MS), value);
  }
  if (options.replaySpeed !== undefined) refuse('replaySpeed', replaySpeedProblem(options.replaySpeed), options.replaySpeed);
  if (options.replayMiss !== undefined) refuse('replayMiss', choiceProblem(options.replayMiss, REPLAY_MISS_MODES), options.replayMiss);
  if (options.unrouted !== undefined) refuse('unrouted', choiceProblem(options.unrouted, UNROUTED_POLICIES), options.unrouted);
  for (const [name, headers] of [
    ['replayIgnore', false],
    ['recordRedact', true],
  ] as const) {
    const given: unknown = options[name];
    if (given === undefined) continue;
    if (!Array.isArray(given)) refuse(name, 'must be a list of JSON paths', given);
    for (const entry of given as unknown[])
      refuse(name, typeof entry === 'string' ? jsonPathProblem(entry, headers) : 'must list JSON paths', entry);
  }
  if (options.modelAliases !== undefined) {
    const checked = checkAliasMap(options.modelAliases);
    if (!checked.ok) throw new TypeError(`startGatehouse: modelAliases: ${checked.message}`);
  }
}

/** A value as an error message shows it. */
function shown(value: unknown): string {
  return typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? String(value));
}
