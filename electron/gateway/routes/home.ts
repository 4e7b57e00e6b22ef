// GET /: says the gateway runs, as Ollama and LM Studio do: a small page for a browser (strict CSP), JSON for API clients; no secrets.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import packageJson from '../../../package.json' with { type: 'json' };
import { CONSOLE_PATH } from '../../../shared/console-address.ts';
import type { GatewayContext } from '../context.ts';

/** The page's one style sheet, allowed by its hash (no other style, no script, no image, no frame). */
const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;line-height:1.5}code{font-size:1.05em}';
export const HOME_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

/** Whether the caller asks for HTML before JSON (a browser's Accept header). */
function wantsHtml(request: FastifyRequest): boolean {
  const accept = String(request.headers.accept ?? '').toLowerCase();
  const html = accept.indexOf('text/html');
  const json = accept.indexOf('application/json');
  return html !== -1 && (json === -1 || html < json);
}

/** The page a browser gets. */
function page(version: string, baseUrl: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Gatehouse</title><style>${STYLE}</style></head><body>
<h1>Gatehouse is running</h1>
<p>Version <code>${escapeHtml(version)}</code></p>
<p>Base URL for OpenAI-compatible clients: <code>${escapeHtml(baseUrl)}/v1</code> (Anthropic and Gemini clients: <code>${escapeHtml(baseUrl)}</code>)</p>
<p><a href="${CONSOLE_PATH}/">Open the console</a></p>
</body></html>`;
}

export async function homeRoutes(app: FastifyInstance, _options: { context: GatewayContext }) {
  app.get('/', { config: { public: true } }, async (request, reply) => {
    // The address the caller reached this gateway by (the Host check has accepted it already).
    const baseUrl = `${request.protocol}://${request.host}`;
    const version = packageJson.version;
    reply.header('cache-control', 'no-store').header('vary', 'Accept').header('x-content-type-options', 'nosniff');
    if (wantsHtml(request))
      return reply
        .header('content-security-policy', HOME_CSP)
        .header('referrer-policy', 'no-referrer')
        .header('x-frame-options', 'DENY')
        .type('text/html; charset=utf-8')
        .send(page(version, baseUrl));
    return { status: 'ok', message: 'Gatehouse is running', name: 'Gatehouse', version, base_url: `${baseUrl}/v1`, console: CONSOLE_PATH };
  });
}
