// The catalogue of simulated models: what each one does, so /v1/models can list them in every protocol's shape.

/** One simulated model. */
export interface SimModel {
  id: string;
  displayName: string;
  /** What the model is for, shown as its description. */
  capability: string;
  /** Gemini's names of the methods the model serves. */
  geminiMethods: string[];
}

/** Creation time reported for every simulated model (Unix seconds). */
export const SIM_MODELS_CREATED = 1_767_225_600; // 2026-01-01T00:00:00Z

export const SIM_MODELS: readonly SimModel[] = [
  {
    id: 'sim-chat',
    displayName: 'Simulated chat',
    capability: 'chat, completions, messages, responses',
    geminiMethods: ['generateContent', 'streamGenerateContent', 'countTokens'],
  },
  {
    id: 'sim-echo',
    displayName: 'Simulated echo',
    capability: 'answers with the last user message',
    geminiMethods: ['generateContent', 'streamGenerateContent', 'countTokens'],
  },
  { id: 'sim-embed', displayName: 'Simulated embeddings', capability: 'embeddings', geminiMethods: ['embedContent', 'batchEmbedContents'] },
  { id: 'sim-image', displayName: 'Simulated images', capability: 'image generation and edits', geminiMethods: [] },
  { id: 'sim-tts', displayName: 'Simulated speech', capability: 'text to speech', geminiMethods: [] },
  { id: 'sim-stt', displayName: 'Simulated transcription', capability: 'speech to text', geminiMethods: [] },
  { id: 'sim-rerank', displayName: 'Simulated rerank', capability: 'document reranking', geminiMethods: [] },
  { id: 'sim-3d', displayName: 'Simulated 3D', capability: '3D generation tasks', geminiMethods: [] },
  { id: 'sim-realtime', displayName: 'Simulated realtime', capability: 'realtime sessions', geminiMethods: [] },
];
