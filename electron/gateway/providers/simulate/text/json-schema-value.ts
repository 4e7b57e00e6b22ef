// Generates a value that satisfies a JSON Schema (the subset clients use for tools and structured output), deterministically.
import type { Random } from './seed.ts';
import type { JsonSchema } from './types.ts';

const WORDS = ['alpha', 'river', 'sample', 'orbit', 'maple', 'signal', 'harbor', 'quartz', 'ember', 'meadow'];

/** A value valid against `schema`; `root` resolves `$ref`s to `#/$defs/…` and `#/definitions/…`. */
export function valueFor(schema: JsonSchema, random: Random, root: JsonSchema = schema, depth = 0): unknown {
  const ref = schema['$ref'];
  if (typeof ref === 'string') return valueFor(resolveRef(ref, root), random, root, depth + 1);
  if ('const' in schema) return schema['const'];
  if (Array.isArray(schema['enum']) && schema['enum'].length > 0) return random.pick(schema['enum']);
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options) && options.length > 0) {
      const concrete = (options as JsonSchema[]).filter((option) => option['type'] !== 'null');
      return valueFor(concrete[0] ?? (options[0] as JsonSchema), random, root, depth + 1);
    }
  }
  if (Array.isArray(schema['allOf'])) {
    const merged = Object.assign({}, ...(schema['allOf'] as JsonSchema[]), { allOf: undefined }) as JsonSchema;
    return valueFor(merged, random, root, depth + 1);
  }
  switch (typeOf(schema)) {
    case 'null':
      return null;
    case 'boolean':
      return random.int(2) === 1;
    case 'integer':
      return integerFor(schema, random);
    case 'number':
      return integerFor(schema, random) + (schema['multipleOf'] === undefined && schema['maximum'] === undefined ? 0.5 : 0);
    case 'string':
      return stringFor(schema, random);
    case 'array': {
      const min = numberOr(schema['minItems'], 1);
      const max = numberOr(schema['maxItems'], Math.max(min, 2));
      const length = depth > 6 ? min : Math.min(max, Math.max(min, 1 + random.int(2)));
      const items = (schema['items'] as JsonSchema | undefined) ?? { type: 'string' };
      const values = Array.from({ length }, () => valueFor(items, random, root, depth + 1));
      return schema['uniqueItems'] === true ? uniqueValues(values, min, () => valueFor(items, random, root, depth + 1)) : values;
    }
    default: {
      const properties = (schema['properties'] as Record<string, JsonSchema> | undefined) ?? {};
      const required = new Set((schema['required'] as string[] | undefined) ?? []);
      const out: Record<string, unknown> = {};
      for (const [name, property] of Object.entries(properties)) {
        if (required.has(name) || depth < 3) out[name] = valueFor(property, random, root, depth + 1);
      }
      // Required names without a declared property take the additionalProperties schema (or a string).
      const additional = schema['additionalProperties'];
      const extra: JsonSchema = additional && typeof additional === 'object' ? (additional as JsonSchema) : { type: 'string' };
      for (const name of required) if (!(name in out)) out[name] = valueFor(extra, random, root, depth + 1);
      return out;
    }
  }
}

function typeOf(schema: JsonSchema): string {
  const type = schema['type'];
  if (Array.isArray(type)) return (type.find((t) => t !== 'null') as string | undefined) ?? 'null';
  if (typeof type === 'string') return type;
  if (schema['properties']) return 'object';
  if (schema['items']) return 'array';
  return 'object';
}

function integerFor(schema: JsonSchema, random: Random): number {
  const exclusiveMin = typeof schema['exclusiveMinimum'] === 'number' ? schema['exclusiveMinimum'] + 1 : undefined;
  const exclusiveMax = typeof schema['exclusiveMaximum'] === 'number' ? schema['exclusiveMaximum'] - 1 : undefined;
  const min = Math.ceil(numberOr(schema['minimum'], exclusiveMin ?? 1));
  const max = Math.floor(numberOr(schema['maximum'], exclusiveMax ?? Math.max(min, 1) + 99));
  const step = schema['multipleOf'];
  if (typeof step === 'number' && step > 0) {
    // A multiple of `step` inside the bounds (the lowest one when the range holds a single multiple).
    const first = Math.ceil(min / step);
    const last = Math.floor(max / step);
    return Number(((first + random.int(Math.max(1, last - first + 1))) * step).toFixed(12));
  }
  return min + random.int(Math.max(1, max - min + 1));
}

/** Drops repeated values (by JSON text) and draws more, a bounded number of times, until `min` distinct ones remain. */
function uniqueValues(values: unknown[], min: number, draw: () => unknown): unknown[] {
  const seen = new Map<string, unknown>();
  for (const value of values) seen.set(JSON.stringify(value), value);
  for (let tries = 0; seen.size < min && tries < 50; tries++) {
    const value = draw();
    seen.set(JSON.stringify(value), value);
  }
  return [...seen.values()];
}

function stringFor(schema: JsonSchema, random: Random): string {
  switch (schema['format']) {
    case 'date':
      return `2026-0${1 + random.int(9)}-1${random.int(10)}`;
    case 'date-time':
      return `2026-0${1 + random.int(9)}-1${random.int(10)}T1${random.int(10)}:30:00Z`;
    case 'email':
      return `${random.pick(WORDS)}@example.com`;
    case 'uri':
    case 'url':
      return `https://example.com/${random.pick(WORDS)}`;
    case 'uuid':
      return '123e4567-e89b-42d3-a456-426614174000';
  }
  const minLength = numberOr(schema['minLength'], 0);
  const maxLength = numberOr(schema['maxLength'], Infinity);
  let text = random.pick(WORDS);
  while (text.length < minLength) text += ` ${random.pick(WORDS)}`;
  return text.slice(0, Math.max(minLength, Math.min(maxLength, text.length)));
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

function resolveRef(ref: string, root: JsonSchema): JsonSchema {
  const path = ref.replace(/^#\/?/, '').split('/').filter(Boolean);
  let node: unknown = root;
  for (const part of path) node = (node as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  return (node as JsonSchema | undefined) ?? {};
}
