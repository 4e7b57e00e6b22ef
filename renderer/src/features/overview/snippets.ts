// Quick-start snippets of the overview: the same first call with curl and the three official SDKs.
import { TOKEN_VARIABLE } from '../../api/chat-formats.ts';

export const SNIPPET_KINDS = ['curl', 'portrait', 'openai', 'anthropic', 'gemini'] as const;
export type SnippetKind = (typeof SNIPPET_KINDS)[number];

/** The placeholder shown until the user asks for a real token. */
export const TOKEN_PLACEHOLDER = TOKEN_VARIABLE;

/** Example model of each family. */
const MODELS = { openai: 'gpt-4o-mini', anthropic: 'claude-sonnet-4-5', gemini: 'gemini-2.5-flash' };

export function snippet(kind: SnippetKind, baseUrl: string, token: string): string {
  switch (kind) {
    case 'curl':
      return [
        `curl ${baseUrl}/v1/chat/completions \\`,
        `  -H "Authorization: Bearer ${token}" \\`,
        `  -H "Content-Type: application/json" \\`,
        `  -d '{"model":"${MODELS.openai}","messages":[{"role":"user","content":"Hello"}]}'`,
      ].join('\n');
    case 'portrait':
      return [
        `curl -X POST ${baseUrl}/v1/portrait/groups \\`,
        `  -H "Authorization: Bearer ${token}" \\`,
        `  -H "Content-Type: application/json" \\`,
        `  -d '{"name":"Spokespeople"}'`,
      ].join('\n');
    case 'openai':
      return [
        `import OpenAI from 'openai';`,
        ``,
        `const client = new OpenAI({ baseURL: '${baseUrl}/v1', apiKey: '${token}' });`,
        `const reply = await client.chat.completions.create({`,
        `  model: '${MODELS.openai}',`,
        `  messages: [{ role: 'user', content: 'Hello' }],`,
        `});`,
        `console.log(reply.choices[0].message.content);`,
      ].join('\n');
    case 'anthropic':
      return [
        `import Anthropic from '@anthropic-ai/sdk';`,
        ``,
        `const client = new Anthropic({ baseURL: '${baseUrl}', apiKey: '${token}' });`,
        `const message = await client.messages.create({`,
        `  model: '${MODELS.anthropic}',`,
        `  max_tokens: 256,`,
        `  messages: [{ role: 'user', content: 'Hello' }],`,
        `});`,
        `console.log(message.content);`,
      ].join('\n');
    case 'gemini':
      return [
        `import { GoogleGenAI } from '@google/genai';`,
        ``,
        `const ai = new GoogleGenAI({ apiKey: '${token}', httpOptions: { baseUrl: '${baseUrl}' } });`,
        `const response = await ai.models.generateContent({ model: '${MODELS.gemini}', contents: 'Hello' });`,
        `console.log(response.text);`,
      ].join('\n');
  }
}
