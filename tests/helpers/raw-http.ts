// Test helper: HTTP(S) requests and WebSocket upgrades with headers fetch will not let a caller set (Host, Origin), as a rebinding page or a browser would send them.
import http from 'node:http';
import https from 'node:https';
import { checkServerIdentity, type PeerCertificate } from 'node:tls';
import WebSocket from 'ws';

/** A raw answer: status, headers and the body parsed as JSON when it is JSON. */
export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  body: any;
}

export interface RawOptions {
  method?: string;
  /** Sent as given; `host` replaces the one Node would derive from the URL. */
  headers?: Record<string, string>;
  body?: unknown;
  /** CA to trust for https:// URLs. */
  ca?: string;
}

/** Reads a response to its end: the text, and the body parsed as JSON when it is JSON. */
async function readAnswer(response: http.IncomingMessage): Promise<{ text: string; body: any }> {
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return { text, body: JSON.parse(text) };
  } catch {
    return { text, body: undefined };
  }
}

/** Sends one request to `url` with exactly the headers given (Host included). */
export function rawRequest(url: string, options: RawOptions = {}): Promise<RawAnswer> {
  const target = new URL(url);
  const payload = options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  const headers = { ...(payload !== undefined && { 'content-type': 'application/json' }), ...options.headers };
  const send = target.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const request = send(
      target,
      {
        method: options.method ?? 'GET',
        headers,
        agent: false,
        // The certificate is checked against the address dialled, not against the (possibly foreign) Host header sent.
        ...(options.ca && {
          ca: options.ca,
          checkServerIdentity: (_name: string, cert: PeerCertificate) => checkServerIdentity(target.hostname.replace(/^\[|\]$/g, ''), cert),
        }),
      },
      (response) =>
        readAnswer(response).then(
          ({ text, body }) => resolve({ status: response.statusCode ?? 0, headers: response.headers, text, body }),
          reject,
        ),
    );
    request.on('error', reject);
    request.end(payload);
  });
}

/** Outcome of a WebSocket upgrade: opened (then closed again), or refused with the HTTP status and body of the refusal. */
export type UpgradeOutcome = { opened: true; protocol: string } | { opened: false; status: number; body: any };

/** Tries an upgrade with the given headers (Host and Origin as a browser would send them) and reports how it went. */
export function tryUpgrade(
  url: string,
  options: { headers?: Record<string, string>; protocols?: string[]; ca?: string } = {},
): Promise<UpgradeOutcome> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, options.protocols ?? [], { headers: options.headers ?? {}, ...(options.ca && { ca: options.ca }) });
    socket.once('open', () => {
      resolve({ opened: true, protocol: socket.protocol });
      socket.close();
    });
    socket.once('unexpected-response', (_request, response) => {
      readAnswer(response).then(({ body }) => resolve({ opened: false, status: response.statusCode ?? 0, body }), reject);
    });
    socket.once('error', reject);
  });
}
