// One cassette as `gatehouse cassette show` prints it: who recorded what and when, the request, and the answer (JSON indented, stream events with their offsets, payload files by name).
import type { Cassette, CassetteBody } from '../../shared/cassette.ts';

/** Characters of one body or event printed; longer ones are cut, saying how much was left out. */
const SHOWN_CHARS = 4000;
/** Stream events printed; the rest are counted. */
const SHOWN_EVENTS = 200;

/** The lines that describe `cassette` (read from `file`). */
export function describeCassette(file: string, cassette: Cassette): string[] {
  const { recording, request } = cassette;
  const by = recording.mode === 'relay' ? `relay channel ${recording.channel ?? '?'}` : 'the simulator';
  const lines = [
    `file:      ${file}`,
    `kind:      ${cassette.kind}, sequence ${cassette.sequence}`,
    `recorded:  ${recording.recordedAt} from ${by} through the ${recording.protocol} protocol${recording.upstreamModel ? ` (upstream model ${recording.upstreamModel})` : ''}`,
    `request:   ${request.method} ${request.path}${request.model ? ` model ${request.model}` : ''}${request.stream ? ' (stream)' : ''}`,
    `key:       ${request.key}`,
  ];
  if (request.body !== undefined) lines.push('request body:', ...indented(json(request.body)));
  switch (cassette.kind) {
    case 'http': {
      const { response } = cassette;
      lines.push(`response:  ${response.status} in ${response.durationMs} ms`);
      for (const [name, value] of Object.entries(response.headers)) lines.push(`  ${name}: ${value}`);
      if (response.body) lines.push('response body:', ...indented(bodyText(response.body)));
      if (response.events) {
        lines.push(`events:    ${response.events.length}`);
        for (const event of response.events.slice(0, SHOWN_EVENTS))
          lines.push(`  +${String(event.atMs).padStart(6)} ms  ${cut(event.data.replace(/\n+$/, '').replaceAll('\n', '\n             '))}`);
        if (response.events.length > SHOWN_EVENTS) lines.push(`  … ${response.events.length - SHOWN_EVENTS} more`);
      }
      if (cassette.usage) lines.push(`usage:     ${cassette.usage.inputTokens} in, ${cassette.usage.outputTokens} out`);
      break;
    }
    case 'realtime':
      lines.push(`frames:    ${cassette.frames.length}`);
      for (const frame of cassette.frames.slice(0, SHOWN_EVENTS))
        lines.push(
          `  +${String(frame.atMs).padStart(6)} ms  ${frame.from.padEnd(8)}  ${frame.text !== undefined ? cut(frame.text) : frame.binary ? bodyText(frame.binary)[0] : '(payload file)'}`,
        );
      if (cassette.frames.length > SHOWN_EVENTS) lines.push(`  … ${cassette.frames.length - SHOWN_EVENTS} more`);
      break;
    case 'portrait':
      for (const seen of cassette.observations)
        lines.push(
          `  +${String(seen.atMs).padStart(6)} ms  ${seen.status}${seen.resolvedUrl ? ` ${seen.resolvedUrl}` : ''}${seen.failureReason ? ` (${seen.failureReason})` : ''}`,
        );
      break;
    case 'task3d':
      for (const step of cassette.progress)
        lines.push(
          `  +${String(step.atMs).padStart(6)} ms  ${step.status}${step.progress !== undefined ? ` ${step.progress}%` : ''}${step.failureReason ? ` (${step.failureReason})` : ''}`,
        );
      for (const saved of cassette.files) lines.push(`  file ${saved.name}: ${saved.blob.file} (${saved.blob.bytes} bytes)`);
      break;
  }
  return lines;
}

/** A body as lines: JSON indented, other text as it is, base64 and payload files by size. */
function bodyText(body: CassetteBody): string[] {
  if ('blob' in body) return [`(file ${body.blob.file}, ${body.blob.bytes} bytes, sha256 ${body.blob.sha256})`];
  if ('base64' in body) return [`(binary, ${Math.floor((body.base64.length * 3) / 4)} bytes as base64)`];
  try {
    return json(JSON.parse(body.text));
  } catch {
    return [cut(body.text)];
  }
}

function json(value: unknown): string[] {
  return cut(JSON.stringify(value, null, 2)).split('\n');
}

function indented(lines: string[]): string[] {
  return lines.map((line) => `  ${line}`);
}

function cut(text: string): string {
  return text.length <= SHOWN_CHARS ? text : `${text.slice(0, SHOWN_CHARS)}… (${text.length - SHOWN_CHARS} more characters)`;
}
