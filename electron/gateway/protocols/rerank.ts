// The rerank shape of Jina and Cohere (POST /v1/rerank, Cohere's /v2/rerank): a request's query and documents checked, and the ranked results rendered.
import { invalid } from '../errors.ts';
import { publicId } from '../ids.ts';
import { isObject, objectBody, optionalArray, optionalBoolean, optionalNumber, requiredString } from './fields.ts';

/** The two paths: v1 (Jina, Cohere v1) returns documents unless told not to; v2 (Cohere) returns none unless asked and names its API version. */
export type RerankEndpoint = '/v1/rerank' | '/v2/rerank';

/** A rerank request as the client sent it, checked. */
export interface RerankRequest {
  model: string;
  query: string;
  documents: string[];
  topN: number;
  returnDocuments: boolean;
}

/** The body of a rerank call on `endpoint`, or a 400 naming the first field that is wrong. */
export function parseRerankRequest(body: unknown, endpoint: RerankEndpoint): RerankRequest {
  const fields = objectBody(body);
  const model = requiredString(fields, 'model');
  const query = requiredString(fields, 'query');
  const documents = documentTexts(optionalArray(fields, 'documents'));
  const topN = optionalNumber(fields, 'top_n', { integer: true, min: 1 }) ?? documents.length;
  const returnDocuments = optionalBoolean(fields, 'return_documents') ?? endpoint === '/v1/rerank';
  return { model, query, documents, topN, returnDocuments };
}

/** The answer on `endpoint`: results best first, with the documents' texts when asked, and the tokens read. */
export function renderRerank(
  endpoint: RerankEndpoint,
  request: RerankRequest,
  results: readonly { index: number; relevance: number }[],
  inputTokens: number,
) {
  return {
    id: publicId('rerank'),
    model: request.model,
    results: results.map(({ index, relevance }) => ({
      index,
      relevance_score: relevance,
      ...(request.returnDocuments && { document: { text: request.documents[index] } }),
    })),
    usage: { total_tokens: inputTokens },
    meta: { ...(endpoint === '/v2/rerank' && { api_version: { version: '2' } }), billed_units: { search_units: 1 } },
  };
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
