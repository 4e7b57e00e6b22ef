// The simulated moderation model: deterministic verdicts from documented trigger words (docs/testing-clients.md), a sub-category also flagging its parent.
import { createHash } from 'node:crypto';
import { MODERATION_CATEGORIES, type ModerationCategory, type ModerationPart, type ModerationVerdict } from '../types.ts';

/** The words that flag each category: a word of the input that starts with one of them (case-insensitive). Documented as test values. */
export const MODERATION_TRIGGERS: Readonly<Record<ModerationCategory, readonly string[]>> = {
  harassment: ['idiot', 'loser'],
  'harassment/threatening': ['threaten'],
  hate: ['bigot'],
  'hate/threatening': ['exterminate'],
  illicit: ['shoplift', 'counterfeit'],
  'illicit/violent': ['bomb', 'firearm'],
  'self-harm': ['selfharm', 'self-harm'],
  'self-harm/intent': ['suicidal'],
  'self-harm/instructions': ['overdose'],
  sexual: ['porn', 'erotic'],
  'sexual/minors': ['underage'],
  violence: ['kill', 'murder', 'attack'],
  'violence/graphic': ['gore', 'gruesome'],
};

/** Categories an image can be scored in (as on the real omni models); the others apply to text only. */
const IMAGE_CATEGORIES: ReadonlySet<ModerationCategory> = new Set([
  'self-harm',
  'self-harm/intent',
  'self-harm/instructions',
  'sexual',
  'violence',
  'violence/graphic',
]);

/** Score of a flagged category, and the ceiling of an unflagged one. */
const FLAGGED_SCORE = 0.9;
const QUIET_CEILING = 0.02;

/** The verdict on one input (all its parts together): triggered categories score 0.9 and up and are flagged, the rest a small stable score from the text. */
export function moderate(parts: readonly ModerationPart[]): ModerationVerdict {
  const hasImage = parts.some((part) => part.type === 'image');
  const text = parts.map((part) => (part.type === 'text' ? part.text : part.url)).join('\n');
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*/gu) ?? [];
  const hit = (category: ModerationCategory) =>
    MODERATION_TRIGGERS[category].some((trigger) =>
      words.some((word) => word.startsWith(trigger) || word.replace(/-/g, '').startsWith(trigger)),
    );
  const triggered = new Set(MODERATION_CATEGORIES.filter(hit));
  for (const category of [...triggered]) {
    const parent = category.split('/')[0] as ModerationCategory;
    triggered.add(parent);
  }
  const digest = createHash('sha256').update(text).digest();
  const flagged = {} as Record<ModerationCategory, boolean>;
  const scores = {} as Record<ModerationCategory, number>;
  const appliedTo = {} as Record<ModerationCategory, ('text' | 'image')[]>;
  MODERATION_CATEGORIES.forEach((category, index) => {
    const jitter = digest[index]! / 255;
    flagged[category] = triggered.has(category);
    scores[category] = round(triggered.has(category) ? FLAGGED_SCORE + jitter * 0.09 : 1e-6 + jitter * QUIET_CEILING);
    appliedTo[category] = hasImage && IMAGE_CATEGORIES.has(category) ? ['text', 'image'] : ['text'];
  });
  return { flagged, scores, appliedTo };
}

function round(score: number): number {
  return Math.round(score * 1e6) / 1e6;
}
