// Quick-start snippets of the overview: the same first call with curl and the three official SDKs (the SDK ones are the Connect page's setups).
import { TOKEN_VARIABLE } from '../../api/chat-formats.ts';
import { setupText, type FamilyModels } from '../connect/setups.ts';

export const SNIPPET_KINDS = ['curl', 'portrait', 'openai', 'anthropic', 'gemini'] as const;
export type SnippetKind = (typeof SNIPPET_KINDS)[number];

/** The placeholder shown until the user asks for a real token. */
export const TOKEN_PLACEHOLDER = TOKEN_VARIABLE;

/** The snippet of `kind`; `models` is the model of each family (suggested from the model list). */
export function snippet(kind: SnippetKind, baseUrl: string, token: string, models: FamilyModels): string {
  switch (kind) {
    case 'curl':
      return [
        `curl ${baseUrl}/v1/chat/completions \\`,
        `  -H "Authorization: Bearer ${token}" \\`,
        `  -H "Content-Type: application/json" \\`,
        `  -d '{"model":"${models.openai}","messages":[{"role":"user","content":"Hello"}]}'`,
      ].join('\n');
    case 'portrait':
      return [
        `curl -X POST ${baseUrl}/v1/portrait/groups \\`,
        `  -H "Authorization: Bearer ${token}" \\`,
        `  -H "Content-Type: application/json" \\`,
        `  -d '{"name":"Spokespeople"}'`,
      ].join('\n');
    case 'openai':
    case 'anthropic':
    case 'gemini':
      // The SDK setups of the Connect page: the token written in, or read from the TOKEN variable.
      return setupText(`${kind}-js`, { baseUrl, secret: token === TOKEN_PLACEHOLDER ? null : token, models });
  }
}
