// startGatehouse's options checked before anything starts, by the rules serve checks its flags with: a wrong value throws a TypeError naming the option and what it takes.
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

/** The options that only mean something beside another one, as serve's flags need theirs. */
const COMPANIONS = {
  recordSimulated: 'record',
  recordReplace: 'record',
  recordRedact: 'record',
  replayMiss: 'replay',
  replayIgnore: 'replay',
  replaySpeed: 'replay',
} as const;

/** Throws a TypeError for the first option of `options` that is wrong; `startGatehouse` calls it before it starts anything. */
export function checkStartOptions(options: StartGatehouseOptions): void {
  const refuse = (name: string, problem: string | null, value: unknown) => {
    if (problem !== null) throw new TypeError(`startGatehouse: ${name} ${problem}; got ${shown(value)}`);
  };
  for (const [name, needs] of Object.entries(COMPANIONS) as [keyof typeof COMPANIONS, 'record' | 'replay'][]) {
    const given = options[name];
    if (given !== undefined && given !== false && options[needs] === undefined)
      throw new TypeError(`startGatehouse: ${name} needs ${needs} (a folder)`);
  }
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
    for (const entry of options[name] ?? [])
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
