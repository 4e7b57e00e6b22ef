// Readable English prose for simulated answers, built from templates and the topic words of the user's message.
import type { Random } from './seed.ts';
import { eachRun, runPattern } from '../word-runs.ts';

const STOPWORDS = new Set(
  'a an and are as at be but by can could do does for from has have how i if in into is it its me my of on or our please should so tell than that the their them then there these they this to us was we what when where which who why will with would you your about write give explain describe'.split(
    ' ',
  ),
);

const NOUNS = [
  'approach',
  'detail',
  'pattern',
  'question',
  'trade-off',
  'example',
  'system',
  'result',
  'idea',
  'step',
  'choice',
  'context',
];
const ADJECTIVES = ['simple', 'careful', 'practical', 'clear', 'useful', 'steady', 'small', 'reliable', 'common', 'gradual'];
const VERBS = ['shapes', 'supports', 'changes', 'explains', 'improves', 'connects to', 'depends on', 'guides', 'clarifies', 'affects'];

const TEMPLATES: readonly ((w: Words) => string)[] = [
  (w) => `${cap(w.topic)} is a ${w.adj} ${w.noun} that ${w.verb} the ${w.noun2}.`,
  (w) => `A ${w.adj} way to think about ${w.topic} is to start with one ${w.noun} at a time.`,
  (w) => `In practice, ${w.topic} ${w.verb} how each ${w.noun} fits into the ${w.adj} ${w.noun2}.`,
  (w) => `Most people find that ${w.topic} becomes clearer with a ${w.adj} ${w.noun}.`,
  (w) => `The key ${w.noun} here is that ${w.topic} ${w.verb} the ${w.noun2} over time.`,
  (w) => `It helps to compare ${w.topic} with a ${w.adj} ${w.noun2} you already know.`,
  (w) => `That is why a ${w.adj} ${w.noun} around ${w.topic} usually pays off.`,
];

interface Words {
  topic: string;
  adj: string;
  noun: string;
  noun2: string;
  verb: string;
}

/** Topic words an answer is about. */
const MAX_TOPICS = 8;
/** Longest topic word, in UTF-16 code units: a longer word (an unbroken run of CJK text, say) is cut to its start, so an answer never repeats a huge prompt. */
export const MAX_TOPIC_WORD_CHARS = 64;
const WORD = runPattern('\\p{L}', "[\\p{L}\\p{N}'-]");

/** The content words of a message (longer than two characters, no stopwords), in order of first appearance: at most eight, each cut to MAX_TOPIC_WORD_CHARS. */
export function topicWords(text: string): string[] {
  const lower = text.toLowerCase();
  const topics = new Set<string>();
  eachRun(lower, WORD, (start, end) => {
    if (end - start <= 2) return;
    const word = lower.slice(start, end);
    if (!STOPWORDS.has(word)) topics.add(cutWord(word));
    return topics.size < MAX_TOPICS;
  });
  return [...topics];
}

/** `word` cut to MAX_TOPIC_WORD_CHARS code units, never inside a surrogate pair. */
function cutWord(word: string): string {
  if (word.length <= MAX_TOPIC_WORD_CHARS) return word;
  const low = word.charCodeAt(MAX_TOPIC_WORD_CHARS);
  return word.slice(0, low >= 0xdc00 && low <= 0xdfff ? MAX_TOPIC_WORD_CHARS - 1 : MAX_TOPIC_WORD_CHARS);
}

/** Two to four sentences about the topic words (or about the conversation in general when there are none). */
export function paragraph(random: Random, topics: readonly string[]): string {
  const count = 2 + random.int(3);
  const sentences: string[] = [];
  for (let i = 0; i < count; i++) {
    const words: Words = {
      topic: topics.length > 0 ? topics[(i + random.int(topics.length)) % topics.length]! : 'this topic',
      adj: random.pick(ADJECTIVES),
      noun: random.pick(NOUNS),
      noun2: random.pick(NOUNS),
      verb: random.pick(VERBS),
    };
    sentences.push(random.pick(TEMPLATES)(words));
  }
  return sentences.join(' ');
}

function cap(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
