// POST /v1/rerank (Jina, Cohere v1) and /v2/rerank (Cohere v2): documents ranked by BM25 relevance to the query, in the shape their clients read.
import type { FastifyInstance } from 'fastify';
import type { GatewayContext } from '../context.ts';
import { isObject, objectBody, optionalArray, optionalBoolean, optionalNumber, requiredString } from '../protocols/fields.ts';
import { bm25Scores, relevance } from '../providers/simulate/bm25.ts';
import { countTokens } from '../protocols/neutral/tokens.ts';
import { publicId } from '../ids.ts';
import { invalid } from '../errors.ts';

export async function rerankRoutes(app: FastifyInstance, options: { context: GatewayContext }) {
  const { billing } = options.context;
  /** One handler for both paths; Cohere's v2 API returns no documents unless asked and names its API version. */
  const rerank = (endpoint: '/v1/rerank' | '/v2/rerank') =>
    app.post(endpoint, async (request) => {
      const fields = objectBody(request.body);
      const model = requiredString(fields, 'model');
      const query = requiredString(fields, 'query');
      const documents = documentTexts(optionalArray(fields, 'documents'));
      const topN = optionalNumber(fields, 'top_n', { integer: true, min: 1 }) ?? documents.length;
      const returnDocuments = optionalBoolean(fields, 'return_documents') ?? endpoint === '/v1/rerank';
      const scores = bm25Scores(query, documents);
      const ranked = scores
        .map((score, index) => ({ index, score }))
        .sort((a, b) => b.score - a.score || a.index - b.index)
        .slice(0, topN);
      const totalTokens = countTokens(query) * documents.length + documents.reduce((sum, doc) => sum + countTokens(doc), 0);
      billing.charge(request.principal, { endpoint, model, inputTokens: totalTokens, outputTokens: 0 });
      return {
        id: publicId('rerank'),
        model,
        results: ranked.map(({ index, score }) => ({
          index,
          relevance_score: relevance(score),
          ...(returnDocuments && { document: { text: documents[index] } }),
        })),
        usage: { total_tokens: totalTokens },
        meta: { ...(endpoint === '/v2/rerank' && { api_version: { version: '2' } }), billed_units: { search_units: 1 } },
      };
    });
  rerank('/v1/rerank');
  rerank('/v2/rerank');
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
