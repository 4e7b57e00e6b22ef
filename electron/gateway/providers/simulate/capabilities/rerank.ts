// The simulated rerank provider: BM25 relevance over the given documents, billed as the query read once per document.
import { countTokens } from '../../../protocols/neutral/tokens.ts';
import type { RerankProvider } from '../../types.ts';
import { bm25Scores, relevance } from '../bm25.ts';

export class SimulatedRerank implements RerankProvider {
  async rerank(request: { query: string; documents: readonly string[]; topN?: number }) {
    const { query, documents } = request;
    const results = bm25Scores(query, documents)
      .map((score, index) => ({ index, score }))
      .sort((a, b) => b.score - a.score || a.index - b.index)
      .slice(0, request.topN ?? documents.length)
      .map(({ index, score }) => ({ index, relevance: relevance(score) }));
    const inputTokens = countTokens(query) * documents.length + documents.reduce((sum, doc) => sum + countTokens(doc), 0);
    return { results, usage: { inputTokens } };
  }
}
