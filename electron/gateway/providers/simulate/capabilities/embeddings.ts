// The simulated embeddings provider: deterministic feature-hashing vectors, billed by the token estimate.
import { countTokens } from '../../../protocols/neutral/tokens.ts';
import type { EmbeddingInput, EmbeddingsProvider } from '../../types.ts';
import { DEFAULT_DIMENSIONS, embed, tokensAsText } from '../embeddings.ts';

export class SimulatedEmbeddings implements EmbeddingsProvider {
  async embed(request: { inputs: readonly EmbeddingInput[]; dimensions?: number }) {
    const texts = request.inputs.map((input) => (typeof input === 'string' ? input : tokensAsText(input)));
    return {
      vectors: texts.map((text) => embed(text, request.dimensions ?? DEFAULT_DIMENSIONS)),
      usage: { inputTokens: texts.reduce((sum, text) => sum + countTokens(text), 0) },
    };
  }
}
