// POST /v1/rerank: documents ranked by BM25 relevance to the query, in the shape Jina and Cohere clients read.
import type { FastifyInstance } from 'fastify';
import type { GatewayContext } from '../context.ts';
import { isObject, objectBody, optionalArray, optionalBoolean, optionalNumber, requiredString } from '../protocols/fields.ts';
import { bm25Scores, relevance } from '../providers/simulate/bm25.ts';
import { countTokens } from '../providers/simulate/text/tokens.ts';
import { publicId } from '../ids.ts';
import { invalid } from '../services/errors.ts';

export async function rerankRoutes(app: FastifyInstance, options: { context: GatewayContext }) {
  const { billing } = options.context;
  app.post('/v1/rerank', async (request) => {
    const fields = objectBody(request.body);
    const model = requiredString(fields, 'model');
    const query = requiredString(fields, 'query');
    const documents = documentTexts(optionalArray(fields, 'documents'));
    const topN = optionalNumber(fields, 'top_n', { integer: true, min: 1 }) ?? documents.length;
    const returnDocuments = optionalBoolean(fields, 'return_documents') ?? true;
    const scores = bm25Scores(query, documents);
    const ranked = scores
      .map((score, index) => ({ index, score }))
      .sort((a, b) => b.score - a.score || a.index - b.index)
      .slice(0, topN);
    const totalTokens = countTokens(query) * documents.length + documents.reduce((sum, doc) => sum + countTokens(doc), 0);
    billing.charge(request.principal, { endpoint: '/v1/rerank', model, inputTokens: totalTokens, outputTokens: 0 });
    return {
      id: publicId('rerank'),
      model,
      results: ranked.map(({ index, score }) => ({
        index,
        relevance_score: relevance(score),
        ...(returnDocuments && { document: { text: documents[index] } }),
      })),
      usage: { total_tokens: totalTokens },
      meta: { billed_units: { search_units: 1 } },
    };
  });
}

/** `documents` as texts: strings or `{text}` objects, at least one. */
function documentTexts(documents: unknown[] | undefined): string[] {
  if (documents === undefined) throw invalid("Missing required parameter: 'documents'.", 'documents');
  if (documents.length === 0) throw invalid("Invalid value for 'documents': expected at least one document.", 'documents');
  return documents.map((doc, index) => {
    if (typeof doc === 'string') return doc;
    if (isObject(doc) && typeof doc['text'] === 'string') return doc['text'];
    throw invalid(`Invalid value for 'documents[${index}]': expected a string or an object with 'text'.`, 'documents');
  });
}
