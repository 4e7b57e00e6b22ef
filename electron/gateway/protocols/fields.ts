// Small validators for protocol request bodies (Anthropic, Gemini, Responses): each failure is a 400 naming the field at fault.
import { invalid } from '../errors.ts';

/** A JSON object as received. */
export type Fields = Record<string, unknown>;

export function isObject(value: unknown): value is Fields {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The request body as an object, or a 400. */
export function objectBody(body: unknown): Fields {
  if (!isObject(body)) throw invalid('Request body must be a JSON object');
  return body;
}

/** `value` as an object, or a 400 naming `path`. */
export function asObject(value: unknown, path: string): Fields {
  if (!isObject(value)) throw invalid(`Invalid type for '${path}': expected an object.`, path);
  return value;
}

/** True when the field is absent or null (both mean "not given" in these APIs). */
export function absent(fields: Fields, key: string): boolean {
  return fields[key] === undefined || fields[key] === null;
}

export function missing(path: string) {
  return invalid(`Missing required parameter: '${path}'.`, path);
}

/** A required non-empty string. */
export function requiredString(fields: Fields, key: string, path = key): string {
  if (absent(fields, key)) throw missing(path);
  const value = optionalString(fields, key, path);
  if (value === undefined || value === '') throw invalid(`Invalid value for '${path}': expected a non-empty string.`, path);
  return value;
}

export function optionalString(fields: Fields, key: string, path = key): string | undefined {
  const value = fields[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalid(`Invalid type for '${path}': expected a string.`, path);
  return value;
}

export function optionalBoolean(fields: Fields, key: string, path = key): boolean | undefined {
  const value = fields[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw invalid(`Invalid type for '${path}': expected a boolean.`, path);
  return value;
}

/** Bounds of a number field. */
export interface NumberRule {
  integer?: boolean;
  min?: number;
  max?: number;
}

export function optionalNumber(fields: Fields, key: string, rule: NumberRule = {}, path = key): number | undefined {
  const value = fields[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || (rule.integer && !Number.isInteger(value))) {
    throw invalid(`Invalid type for '${path}': expected ${rule.integer ? 'an integer' : 'a number'}.`, path);
  }
  if (rule.min !== undefined && value < rule.min) {
    throw invalid(`Invalid value for '${path}': must be >= ${rule.min}, got ${value}.`, path);
  }
  if (rule.max !== undefined && value > rule.max) {
    throw invalid(`Invalid value for '${path}': must be <= ${rule.max}, got ${value}.`, path);
  }
  return value;
}

export function optionalArray(fields: Fields, key: string, path = key): unknown[] | undefined {
  const value = fields[key];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw invalid(`Invalid type for '${path}': expected an array.`, path);
  return value;
}

/** An optional array of strings (stop sequences, allowed names). */
export function optionalStringList(fields: Fields, key: string, path = key): string[] | undefined {
  const list = optionalArray(fields, key, path);
  if (list === undefined) return undefined;
  return list.map((item, index) => {
    if (typeof item !== 'string') throw invalid(`Invalid type for '${path}[${index}]': expected a string.`, `${path}[${index}]`);
    return item;
  });
}

/** A JSON Schema object given by the client (tool parameters, output schemas); absent means "any object". */
export function schemaOf(value: unknown, path: string): Record<string, unknown> {
  if (value === undefined || value === null) return { type: 'object', properties: {} };
  return asObject(value, path);
}
