// Serves the built console (out/renderer) at /console with a strict CSP and an SPA fallback; explains how to build it when missing.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { queryOf } from '../server/protocol.ts';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { CONSOLE_CSP, CONSOLE_PATH } from '../../../shared/console-address.ts';
import type { GatewayContext } from '../context.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

/** Where a build may sit: next to the sources (out/renderer) or next to the bundled main process (out/main → out/renderer). */
function candidateDirs(): string[] {
  const here = import.meta.dirname;
  return [path.resolve(here, '../../../out/renderer'), path.resolve(here, '../renderer')];
}

/** The folder holding the built console, or undefined when it has not been built. */
export function findConsoleDir(candidates: string[] = candidateDirs()): string | undefined {
  return candidates.find((dir) => existsSync(path.join(dir, 'index.html')));
}

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Gatehouse console not built</title></head>
<body style="font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;line-height:1.5">
<h1>The console is not built yet</h1>
<p>This gateway serves the console from <code>out/renderer</code>, which does not exist. In the Gatehouse checkout run</p>
<pre>npm run build:renderer</pre>
<p>then reload this page (keep the <code>?admin_token=…</code> part of the address). The API itself works without it.</p>
</body></html>`;

function secureHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('content-security-policy', CONSOLE_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'no-referrer')
    .header('cross-origin-opener-policy', 'same-origin');
}

export async function consoleRoutes(app: FastifyInstance, options: { context: GatewayContext; consoleDirs?: string[] }) {
  // Relative asset URLs need the trailing slash; keep the query (it may carry the admin token).
  app.get(CONSOLE_PATH, { config: { public: true } }, async (request, reply) => {
    return secureHeaders(reply).redirect(`${CONSOLE_PATH}/${queryOf(request)}`, 302);
  });

  app.get<{ Params: { '*': string } }>(`${CONSOLE_PATH}/*`, { config: { public: true } }, async (request, reply) => {
    secureHeaders(reply);
    const root = findConsoleDir(options.consoleDirs);
    if (!root) return reply.status(503).header('cache-control', 'no-store').type(TYPES['.html']!).send(NOT_BUILT);
    const file = resolveInside(root, request.params['*']);
    const wanted = file && path.extname(file) !== '' ? file : path.join(root, 'index.html');
    let body: Buffer;
    try {
      body = await readFile(wanted);
    } catch {
      return reply.status(404).type('text/plain; charset=utf-8').send('Not found');
    }
    const isHashedAsset = wanted.startsWith(path.join(root, 'assets') + path.sep);
    return reply
      .header('cache-control', isHashedAsset ? 'public, max-age=31536000, immutable' : 'no-store')
      .type(TYPES[path.extname(wanted)] ?? 'application/octet-stream')
      .send(body);
  });
}

/** The file a URL tail names inside `root`, or undefined when it escapes the folder or is malformed. */
export function resolveInside(root: string, tail: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(tail.split('?', 1)[0] ?? '');
  } catch {
    return undefined;
  }
  if (decoded.includes('\0')) return undefined;
  const full = path.resolve(root, `.${path.posix.sep}${decoded}`);
  return full === root || full.startsWith(root + path.sep) ? full : undefined;
}
