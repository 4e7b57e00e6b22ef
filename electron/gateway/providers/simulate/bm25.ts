// Okapi BM25 relevance of documents to a query, computed over the given documents as the corpus.
import { terms } from './text-features.ts';

const K1 = 1.2;
const B = 0.75;

/** The BM25 score of each document for the query (0 when they share no term). */
export function bm25Scores(query: string, documents: readonly string[]): number[] {
  const docs = documents.map(terms);
  const averageLength = docs.reduce((sum, doc) => sum + doc.length, 0) / Math.max(1, docs.length) || 1;
  const documentFrequency = new Map<string, number>();
  for (const doc of docs) for (const term of new Set(doc)) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  const queryTerms = [...new Set(terms(query))];
  return docs.map((doc) => {
    const frequency = new Map<string, number>();
    for (const term of doc) frequency.set(term, (frequency.get(term) ?? 0) + 1);
    let score = 0;
    for (const term of queryTerms) {
      const tf = frequency.get(term) ?? 0;
      if (tf === 0) continue;
      const n = documentFrequency.get(term) ?? 0;
      const idf = Math.log(1 + (docs.length - n + 0.5) / (n + 0.5));
      score += (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * doc.length) / averageLength));
    }
    return score;
  });
}

/** Maps a non-negative BM25 score into [0, 1), keeping the order. */
export function relevance(score: number): number {
  return score / (score + 1);
}
