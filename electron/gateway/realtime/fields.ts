// Validators of realtime client-event fields shared by session.update and response.create: each failure names the field at fault.
import { isObject, type Fields } from '../protocols/fields.ts';
import { metadataProblem } from '../protocols/metadata.ts';
import type { ToolChoice, ToolSpec } from '../protocols/neutral/chat.ts';
import { GatewayError } from '../errors.ts';
import { parseFormat, type AudioFormat } from './audio-format.ts';

/** The output modalities of a session or response: exactly one, as on the GA API (audio always comes with a transcript). */
export type Modalities = ['text'] | ['audio'];

/** A client event that cannot be carried out; answered with an `error` event carrying `code` and `param`. */
export class ClientEventError extends GatewayError {
  readonly code: string;
  constructor(message: string, param: string | null, code: string) {
    super('invalid_request', message, param);
    this.code = code;
  }
}

/** A client-event problem naming the field at fault. */
export function invalidField(message: string, param: string | null, code = 'invalid_value'): ClientEventError {
  return new ClientEventError(message, param, code);
}

export function expectObject(value: unknown, path: string): Fields {
  if (!isObject(value))
    throw invalidField(`Invalid type for '${path}': expected an object, but got ${typeName(value)}.`, path, 'invalid_type');
  return value;
}

export function expectString(value: unknown, path: string): string {
  if (typeof value !== 'string')
    throw invalidField(`Invalid type for '${path}': expected a string, but got ${typeName(value)}.`, path, 'invalid_type');
  return value;
}

export function expectBoolean(value: unknown, path: string): boolean {
  if (typeof value !== 'boolean')
    throw invalidField(`Invalid type for '${path}': expected a boolean, but got ${typeName(value)}.`, path, 'invalid_type');
  return value;
}

/** A number within [min, max]. */
export function expectNumber(value: unknown, path: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw invalidField(`Invalid type for '${path}': expected a number, but got ${typeName(value)}.`, path, 'invalid_type');
  if (value < min || value > max) throw invalidField(`Invalid '${path}': expected a value from ${min} to ${max}, but got ${value}.`, path);
  return value;
}

/** GA `output_modalities` (`["text"]` or `["audio"]`) or beta `modalities` (`["text"]` or `["audio","text"]`). */
export function parseModalities(value: unknown, path: string, beta: boolean): Modalities {
  const list = Array.isArray(value) ? value : undefined;
  const ok =
    list !== undefined && list.length > 0 && list.every((m) => m === 'text' || m === 'audio') && new Set(list).size === list.length;
  const wanted = beta ? "['text'] or ['audio', 'text']" : "['text'] or ['audio']";
  if (!ok || (!beta && list.length > 1) || (beta && list.length === 1 && list[0] === 'audio')) {
    throw invalidField(`Invalid value for '${path}': expected ${wanted}.`, path);
  }
  return list.includes('audio') ? ['audio'] : ['text'];
}

/** Function tools (`{type: 'function', name, description?, parameters?}`); other tool types are not simulated. The model checks their schemas (RealtimeProvider.checkTools). */
export function parseTools(value: unknown, path: string): ToolSpec[] {
  if (!Array.isArray(value))
    throw invalidField(`Invalid type for '${path}': expected an array, but got ${typeName(value)}.`, path, 'invalid_type');
  return value.map((raw, i) => {
    const at = `${path}[${i}]`;
    const tool = expectObject(raw, at);
    if (tool['type'] !== undefined && tool['type'] !== 'function') {
      throw invalidField(
        `Invalid value for '${at}.type': only 'function' tools are simulated (got '${String(tool['type'])}').`,
        `${at}.type`,
      );
    }
    const name = expectString(tool['name'], `${at}.name`);
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(name))
      throw invalidField(`Invalid '${at}.name': use 1 to 64 letters, digits, '_' or '-'.`, `${at}.name`);
    const description = tool['description'] === undefined ? undefined : expectString(tool['description'], `${at}.description`);
    const parameters =
      tool['parameters'] === undefined ? { type: 'object', properties: {} } : expectObject(tool['parameters'], `${at}.parameters`);
    return { name, parameters, ...(description !== undefined && { description }) };
  });
}

/** `auto`, `none`, `required` or `{type: 'function', name}`. */
export function parseToolChoice(value: unknown, path: string): ToolChoice {
  if (value === 'auto' || value === 'none' || value === 'required') return value;
  if (isObject(value) && value['type'] === 'function' && typeof value['name'] === 'string') return { name: value['name'] };
  throw invalidField(`Invalid value for '${path}': expected 'auto', 'none', 'required' or {type: 'function', name}.`, path);
}

/** An integer from 1 to 4096, or `inf`. */
export function parseMaxTokens(value: unknown, path: string): number | 'inf' {
  if (value === 'inf') return 'inf';
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 4096) {
    throw invalidField(`Invalid value for '${path}': expected an integer from 1 to 4096, or 'inf'.`, path);
  }
  return value;
}

/** An audio format: GA `{type: 'audio/pcm', rate: 24000}` / `{type: 'audio/pcmu'}` / `{type: 'audio/pcma'}`, beta `pcm16` / `g711_ulaw` / `g711_alaw`. */
export function expectFormat(value: unknown, path: string, beta: boolean): AudioFormat {
  const format = parseFormat(value);
  if (!format) {
    const wanted = beta
      ? "'pcm16', 'g711_ulaw' or 'g711_alaw'"
      : "{type: 'audio/pcm', rate: 24000}, {type: 'audio/pcmu'} or {type: 'audio/pcma'}";
    throw invalidField(`Invalid value for '${path}': expected ${wanted}.`, path);
  }
  return format;
}

/** A voice name (any string; built-in names are alloy, ash, ballad, coral, echo, sage, shimmer, verse, marin, cedar) or `{id}`. */
export function parseVoice(value: unknown, path: string): string {
  if (isObject(value) && typeof value['id'] === 'string') return value['id'];
  const voice = expectString(value, path);
  if (voice === '') throw invalidField(`Invalid value for '${path}': expected a voice name.`, path);
  return voice;
}

/** Metadata: at most 16 string values, keys up to 64 and values up to 512 characters. */
export function parseMetadata(value: unknown, path: string): Record<string, string> | null {
  if (value === null) return null;
  const fields = expectObject(value, path);
  const problem = metadataProblem(fields, path);
  if (problem) throw invalidField(problem.message, problem.param);
  return fields as Record<string, string>;
}

function typeName(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}
