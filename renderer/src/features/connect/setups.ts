// "Connect your tool": the setup text of each coding tool, SDK and shell for this gateway's base URL and a token (or the TOKEN variable).

/** Every setup the Connect page offers, in its order. */
export const SETUP_KINDS = [
  'claude-code',
  'codex',
  'gemini-cli',
  'openai-compatible',
  'openai-python',
  'openai-js',
  'anthropic-python',
  'anthropic-js',
  'gemini-python',
  'gemini-js',
  'shell',
] as const;
export type SetupKind = (typeof SETUP_KINDS)[number];

/** The environment variable the setups read the token from when the console does not know its secret. */
export const TOKEN_ENV = 'TOKEN';

/** The model each family's setups name: suggested from the Models page's list (shared/model-suggest.ts), never hard-coded. */
export type FamilyModels = Record<'openai' | 'anthropic' | 'gemini', string>;

/** What a setup is written for. */
export interface SetupInput {
  /** The gateway's base URL, without a trailing slash. */
  baseUrl: string;
  /** The token's secret, or null: the setup then reads it from $TOKEN. */
  secret: string | null;
  /** The model of each family. */
  models: FamilyModels;
}

/** A shell value: the secret quoted, or "$TOKEN". */
const shellToken = (secret: string | null) => (secret === null ? `"$${TOKEN_ENV}"` : `'${secret}'`);
/** A JavaScript expression of the token. */
const jsToken = (secret: string | null) => (secret === null ? `process.env.${TOKEN_ENV}` : `'${secret}'`);
/** A Python expression of the token. */
const pyToken = (secret: string | null) => (secret === null ? `os.environ["${TOKEN_ENV}"]` : `"${secret}"`);
const pyImportOs = (secret: string | null) => (secret === null ? ['import os'] : []);

/** The text of one setup. */
export function setupText(kind: SetupKind, { baseUrl, secret, models: EXAMPLE_MODELS }: SetupInput): string {
  switch (kind) {
    case 'claude-code':
      return [
        `export ANTHROPIC_BASE_URL=${baseUrl}`,
        `export ANTHROPIC_AUTH_TOKEN=${shellToken(secret)}`,
        `export ANTHROPIC_MODEL=${EXAMPLE_MODELS.anthropic}`,
        `claude`,
      ].join('\n');
    case 'codex':
      return [
        `# ~/.codex/config.toml`,
        `model = "${EXAMPLE_MODELS.openai}"`,
        `model_provider = "gatehouse"`,
        ``,
        `[model_providers.gatehouse]`,
        `name = "Gatehouse"`,
        `base_url = "${baseUrl}/v1"`,
        `env_key = "GATEHOUSE_API_KEY"`,
        `wire_api = "responses"`,
        ``,
        `# then, in the shell that runs codex:`,
        `export GATEHOUSE_API_KEY=${shellToken(secret)}`,
      ].join('\n');
    case 'gemini-cli':
      return [
        `export GOOGLE_GEMINI_BASE_URL=${baseUrl}`,
        `export GEMINI_API_KEY=${shellToken(secret)}`,
        `gemini -m ${EXAMPLE_MODELS.gemini}`,
      ].join('\n');
    case 'openai-compatible':
      return [
        `Provider:  OpenAI-compatible`,
        `Base URL:  ${baseUrl}/v1`,
        `API key:   ${secret ?? `(the token's secret, as in $${TOKEN_ENV})`}`,
        `Model:     ${EXAMPLE_MODELS.openai}`,
      ].join('\n');
    case 'openai-python':
      return [
        ...pyImportOs(secret),
        `from openai import OpenAI`,
        ``,
        `client = OpenAI(base_url="${baseUrl}/v1", api_key=${pyToken(secret)})`,
        `reply = client.chat.completions.create(`,
        `    model="${EXAMPLE_MODELS.openai}",`,
        `    messages=[{"role": "user", "content": "Hello"}],`,
        `)`,
        `print(reply.choices[0].message.content)`,
      ].join('\n');
    case 'openai-js':
      return [
        `import OpenAI from 'openai';`,
        ``,
        `const client = new OpenAI({ baseURL: '${baseUrl}/v1', apiKey: ${jsToken(secret)} });`,
        `const reply = await client.chat.completions.create({`,
        `  model: '${EXAMPLE_MODELS.openai}',`,
        `  messages: [{ role: 'user', content: 'Hello' }],`,
        `});`,
        `console.log(reply.choices[0].message.content);`,
      ].join('\n');
    case 'anthropic-python':
      return [
        ...pyImportOs(secret),
        `import anthropic`,
        ``,
        `client = anthropic.Anthropic(base_url="${baseUrl}", api_key=${pyToken(secret)})`,
        `message = client.messages.create(`,
        `    model="${EXAMPLE_MODELS.anthropic}",`,
        `    max_tokens=256,`,
        `    messages=[{"role": "user", "content": "Hello"}],`,
        `)`,
        `print(message.content[0].text)`,
      ].join('\n');
    case 'anthropic-js':
      return [
        `import Anthropic from '@anthropic-ai/sdk';`,
        ``,
        `const client = new Anthropic({ baseURL: '${baseUrl}', apiKey: ${jsToken(secret)} });`,
        `const message = await client.messages.create({`,
        `  model: '${EXAMPLE_MODELS.anthropic}',`,
        `  max_tokens: 256,`,
        `  messages: [{ role: 'user', content: 'Hello' }],`,
        `});`,
        `console.log(message.content);`,
      ].join('\n');
    case 'gemini-python':
      return [
        ...pyImportOs(secret),
        `from google import genai`,
        `from google.genai import types`,
        ``,
        `client = genai.Client(api_key=${pyToken(secret)}, http_options=types.HttpOptions(base_url="${baseUrl}"))`,
        `response = client.models.generate_content(model="${EXAMPLE_MODELS.gemini}", contents="Hello")`,
        `print(response.text)`,
      ].join('\n');
    case 'gemini-js':
      return [
        `import { GoogleGenAI } from '@google/genai';`,
        ``,
        `const ai = new GoogleGenAI({ apiKey: ${jsToken(secret)}, httpOptions: { baseUrl: '${baseUrl}' } });`,
        `const response = await ai.models.generateContent({ model: '${EXAMPLE_MODELS.gemini}', contents: 'Hello' });`,
        `console.log(response.text);`,
      ].join('\n');
    case 'shell':
      return [
        secret === null ? `# export ${TOKEN_ENV}=… (paste the token's secret after the =)` : `export ${TOKEN_ENV}='${secret}'`,
        `export OPENAI_BASE_URL=${baseUrl}/v1`,
        `export OPENAI_API_KEY="$${TOKEN_ENV}"`,
        `export ANTHROPIC_BASE_URL=${baseUrl}`,
        `export ANTHROPIC_AUTH_TOKEN="$${TOKEN_ENV}"`,
        `export GOOGLE_GEMINI_BASE_URL=${baseUrl}`,
        `export GEMINI_API_KEY="$${TOKEN_ENV}"`,
      ].join('\n');
  }
}
