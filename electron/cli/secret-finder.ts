// Finds secrets in a file without ever printing one: the channel keys of the secret store in any encoding (through `shared/secret-scrub.ts`) and the shapes of common keys, raw, JSON-escaped, percent-encoded or in base64.
import { createReadStream } from 'node:fs';
import { keyParts, secretHint } from '../../shared/channels.ts';
import { SecretScrubber, type HiddenSecret } from '../../shared/secret-scrub.ts';

/** A secret to look for: what it is (a channel's name) and its value. */
export interface KnownSecret {
  /** Says whose it is: `the key of channel "openai-main"`. */
  owner: string;
  value: string;
}

/** What was found: whose or what shape, and a hint of it (never the secret). */
export interface FoundSecret {
  what: string;
  hint: string;
}

/**
 * The shapes of common credentials, found even when no secret store names them. A hint (`sk-…wxyz`) is not one: its
 * ellipsis breaks the shape.
 */
export const KEY_SHAPES: readonly { name: string; pattern: RegExp }[] = [
  { name: 'an OpenAI or Anthropic style key', pattern: /\bsk-[A-Za-z0-9_-]{20,}/g },
  { name: 'a Google API key', pattern: /\bAIza[0-9A-Za-z_-]{35}/g },
  { name: 'an AWS access key id', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  { name: 'a GitHub token', pattern: /\bgh[pousr]_[A-Za-z0-9]{36,}/g },
  { name: 'a Slack token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  { name: 'a bearer credential', pattern: /\bBearer\s+[A-Za-z0-9._~+/-]{20,}=*/g },
  { name: 'a private key', pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----/g },
];

/** Bytes of a file read at a time. */
const CHUNK_BYTES = 1024 * 1024;
/** Bytes of one read kept before the next, so a shape cut by the read is still found whole (no shape above is longer). */
const SHAPE_OVERLAP = 512;
/** The shortest base64 run decoded to look for shapes in it (a 20-character key is 27 base64 characters). */
const BASE64_RUN = /[A-Za-z0-9+/_-]{24,}={0,2}/g;

/** The marker a found secret is replaced by while scanning: bytes no text or JSON holds, so only a find writes it. */
const marker = (index: number) => `\u0000gatehouse-secret-${index}\u0000`;

/** Finds secrets in one file (streamed: a 100 MB payload is read a chunk at a time). */
export class SecretFinder {
  private readonly hidden: HiddenSecret[] = [];
  /** What each hidden secret is reported as, by its marker's index. */
  private readonly reports: FoundSecret[] = [];
  constructor(known: readonly KnownSecret[]) {
    for (const { owner, value } of known)
      for (const part of keyParts(value)) {
        this.hidden.push({ secret: part, hint: marker(this.reports.length) });
        this.reports.push({ what: owner, hint: secretHint(part) });
      }
  }

  /** Every secret in `file`, each named once. */
  async scanFile(file: string): Promise<FoundSecret[]> {
    const found = new Map<string, FoundSecret>();
    const add = (item: FoundSecret) => found.set(`${item.what}\u0000${item.hint}`, item);
    const scrubber = this.hidden.length > 0 ? new SecretScrubber(this.hidden) : null;
    let scrubbedTail = '';
    let textTail = '';
    const keysIn = (out: Uint8Array) => {
      const text = scrubbedTail + Buffer.from(out.buffer, out.byteOffset, out.byteLength).toString('latin1');
      for (const match of text.matchAll(/\u0000gatehouse-secret-(\d+)\u0000/g)) add(this.reports[Number(match[1])]!);
      scrubbedTail = text.slice(-64);
    };
    for await (const chunk of createReadStream(file, { highWaterMark: CHUNK_BYTES }) as AsyncIterable<Buffer>) {
      if (scrubber) keysIn(scrubber.pass(chunk));
      const text = textTail + chunk.toString('latin1');
      for (const item of shapesIn(text)) add(item);
      textTail = text.slice(-SHAPE_OVERLAP);
    }
    if (scrubber) keysIn(scrubber.end());
    return [...found.values()];
  }
}

/** The key shapes in `text`, read as it is, with JSON's and percent escapes undone, and inside base64 runs. */
export function shapesIn(text: string): FoundSecret[] {
  const found: FoundSecret[] = [];
  for (const view of [text, unescapeJson(text), unescapePercent(text), ...base64Decodings(text)])
    for (const { name, pattern } of KEY_SHAPES)
      for (const match of view.matchAll(pattern)) found.push({ what: name, hint: secretHint(match[0]) });
  return found;
}

/** JSON's `\uXXXX` and `\/` escapes undone, also when escaped again (a JSON text kept as a string in a cassette). */
function unescapeJson(text: string): string {
  return text.replace(/\\+u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))).replace(/\\+\//g, '/');
}

function unescapePercent(text: string): string {
  return text.replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** The base64 (and base64url) runs of `text` decoded, at each of the four character alignments a run cut from a longer one can have. */
function base64Decodings(text: string): string[] {
  const out: string[] = [];
  for (const [run] of unescapeJson(text).matchAll(BASE64_RUN)) {
    const standard = run.replaceAll('-', '+').replaceAll('_', '/').replace(/=+$/, '');
    for (let skip = 0; skip < 4; skip++) out.push(Buffer.from(standard.slice(skip), 'base64').toString('latin1'));
  }
  return out;
}
