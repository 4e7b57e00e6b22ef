// Shell-ready curl command lines, for "copy as curl" in the playground and the request journal.

/** Quotes a word for a POSIX shell. */
export const shellQuote = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;

/** What a curl line sends. Header values are quoted as given; `rawHeaders` are written inside double quotes so the shell expands variables in them. */
export interface CurlRequest {
  url: string;
  method?: string;
  headers: Record<string, string>;
  rawHeaders?: string[];
  body?: string;
  /** -N: print a streamed answer as it arrives. */
  stream?: boolean;
}

/** One argument per line, joined with backslash continuations. */
export function curlCommand(request: CurlRequest): string {
  const method = request.method?.toUpperCase();
  const impliedMethod = request.body === undefined ? 'GET' : 'POST';
  const options = [
    ...(request.stream ? ['-N'] : []),
    // -I asks for the head only; `-X HEAD` would wait for a body that never comes.
    ...(method === 'HEAD' ? ['-I'] : method && method !== impliedMethod ? ['-X', method] : []),
    // Brackets and braces in a URL are curl's globbing syntax unless turned off.
    ...(/[[\]{}]/.test(request.url) ? ['-g'] : []),
  ];
  const lines = [['curl', ...options, shellQuote(request.url)].join(' ')];
  for (const header of request.rawHeaders ?? []) lines.push(`  -H "${header}"`);
  for (const [name, value] of Object.entries(request.headers)) lines.push(`  -H ${shellQuote(`${name}: ${value}`)}`);
  if (request.body !== undefined) lines.push(`  -d ${shellQuote(request.body)}`);
  return lines.join(' \\\n');
}
