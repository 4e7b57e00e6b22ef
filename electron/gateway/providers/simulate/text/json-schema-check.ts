// A small JSON Schema validator (the subset json-schema-value.ts generates) for self-checks and tests.
import type { JsonSchema } from '../../../protocols/neutral/chat.ts';

const FORMATS: Record<string, RegExp> = {
  date: /^\d{4}-\d{2}-\d{2}$/,
  'date-time': /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/,
  email: /^[^@\s]+@[^@\s]+\.[^@\s]+$/,
  uri: /^[a-z][a-z0-9+.-]*:\S+$/i,
  url: /^[a-z][a-z0-9+.-]*:\S+$/i,
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
};

/**
 * The ways `value` breaks `schema`, as readable messages with a JSON path (`$.a[0].b: …`); empty when valid.
 * Supports type (also lists), nullable, enum, const, properties, required, additionalProperties, items,
 * minItems/maxItems, minLength/maxLength, pattern, formats date/date-time/email/uri/uuid, minimum/maximum
 * (and exclusive), multipleOf, anyOf/oneOf/allOf and `$ref` to `#/$defs/…` or `#/definitions/…`.
 */
export function validateAgainstSchema(value: unknown, schema: JsonSchema): string[] {
  const errors: string[] = [];
  steps = 0;
  check(value, schema, schema, '$', errors, 0);
  if (steps > MAX_CHECK_STEPS) errors.push(`$: the schema takes more than ${MAX_CHECK_STEPS} steps to check`);
  return errors;
}

/** Most sub-schema visits of one validation (anyOf over `$ref`s can branch exponentially). */
export const MAX_CHECK_STEPS = 100_000;

/** Sub-schema visits of the validation under way (validation is synchronous, so one counter serves). */
let steps = 0;

function check(value: unknown, schema: JsonSchema, root: JsonSchema, path: string, errors: string[], depth: number): void {
  if (depth > 64 || ++steps > MAX_CHECK_STEPS) return;
  const ref = schema['$ref'];
  if (typeof ref === 'string') {
    const target = resolve(ref, root);
    if (target === undefined) errors.push(`${path}: unresolvable $ref ${ref}`);
    else check(value, target, root, path, errors, depth + 1);
  }
  if (value === null && schema['nullable'] === true) return;
  if ('const' in schema && JSON.stringify(schema['const']) !== JSON.stringify(value))
    errors.push(`${path}: must equal ${JSON.stringify(schema['const'])}`);
  if (Array.isArray(schema['enum']) && !schema['enum'].some((item) => JSON.stringify(item) === JSON.stringify(value))) {
    errors.push(`${path}: must be one of ${JSON.stringify(schema['enum'])}`);
  }
  const types = schema['type'] === undefined ? undefined : ([] as unknown[]).concat(schema['type']);
  if (types && !types.some((type) => hasType(value, String(type)))) {
    errors.push(`${path}: expected ${types.join(' or ')}, got ${describe(value)}`);
    return;
  }
  for (const sub of asSchemas(schema['allOf'])) check(value, sub, root, path, errors, depth + 1);
  const anyOf = asSchemas(schema['anyOf']);
  if (anyOf.length > 0 && !anyOf.some((sub) => validSub(value, sub, root, path, depth))) errors.push(`${path}: matches none of anyOf`);
  const oneOf = asSchemas(schema['oneOf']);
  if (oneOf.length > 0) {
    const matches = oneOf.filter((sub) => validSub(value, sub, root, path, depth)).length;
    if (matches !== 1) errors.push(`${path}: must match exactly one of oneOf (matches ${matches})`);
  }
  if (typeof value === 'string') checkString(value, schema, path, errors);
  else if (typeof value === 'number') checkNumber(value, schema, path, errors);
  else if (Array.isArray(value)) checkArray(value, schema, root, path, errors, depth);
  else if (value !== null && typeof value === 'object') checkObject(value as Record<string, unknown>, schema, root, path, errors, depth);
}

function validSub(value: unknown, sub: JsonSchema, root: JsonSchema, path: string, depth: number): boolean {
  const errors: string[] = [];
  check(value, sub, root, path, errors, depth + 1);
  return errors.length === 0;
}

function checkString(value: string, schema: JsonSchema, path: string, errors: string[]): void {
  const length = [...value].length;
  if (typeof schema['minLength'] === 'number' && length < schema['minLength']) errors.push(`${path}: shorter than ${schema['minLength']}`);
  if (typeof schema['maxLength'] === 'number' && length > schema['maxLength']) errors.push(`${path}: longer than ${schema['maxLength']}`);
  if (typeof schema['pattern'] === 'string' && !new RegExp(schema['pattern'], 'u').test(value))
    errors.push(`${path}: does not match ${schema['pattern']}`);
  const format = typeof schema['format'] === 'string' ? FORMATS[schema['format']] : undefined;
  if (format && !format.test(value)) errors.push(`${path}: not a valid ${String(schema['format'])}`);
}

function checkNumber(value: number, schema: JsonSchema, path: string, errors: string[]): void {
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf } = schema as Record<string, unknown>;
  if (typeof minimum === 'number' && value < minimum) errors.push(`${path}: less than ${minimum}`);
  if (typeof maximum === 'number' && value > maximum) errors.push(`${path}: greater than ${maximum}`);
  if (typeof exclusiveMinimum === 'number' && value <= exclusiveMinimum) errors.push(`${path}: not greater than ${exclusiveMinimum}`);
  if (typeof exclusiveMaximum === 'number' && value >= exclusiveMaximum) errors.push(`${path}: not less than ${exclusiveMaximum}`);
  if (typeof multipleOf === 'number' && multipleOf > 0 && Math.abs(value / multipleOf - Math.round(value / multipleOf)) > 1e-9) {
    errors.push(`${path}: not a multiple of ${multipleOf}`);
  }
}

function checkArray(value: unknown[], schema: JsonSchema, root: JsonSchema, path: string, errors: string[], depth: number): void {
  if (typeof schema['minItems'] === 'number' && value.length < schema['minItems'])
    errors.push(`${path}: fewer than ${schema['minItems']} items`);
  if (typeof schema['maxItems'] === 'number' && value.length > schema['maxItems'])
    errors.push(`${path}: more than ${schema['maxItems']} items`);
  const items = schema['items'];
  if (items && typeof items === 'object' && !Array.isArray(items)) {
    value.forEach((item, index) => check(item, items as JsonSchema, root, `${path}[${index}]`, errors, depth + 1));
  }
}

function checkObject(
  value: Record<string, unknown>,
  schema: JsonSchema,
  root: JsonSchema,
  path: string,
  errors: string[],
  depth: number,
): void {
  const properties = (schema['properties'] ?? {}) as Record<string, JsonSchema>;
  for (const name of (schema['required'] as string[] | undefined) ?? []) {
    if (!(name in value)) errors.push(`${path}: missing required property '${name}'`);
  }
  const additional = schema['additionalProperties'];
  for (const [name, item] of Object.entries(value)) {
    if (properties[name]) check(item, properties[name], root, `${path}.${name}`, errors, depth + 1);
    else if (additional === false) errors.push(`${path}: unexpected property '${name}'`);
    else if (additional && typeof additional === 'object')
      check(item, additional as JsonSchema, root, `${path}.${name}`, errors, depth + 1);
  }
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'boolean':
      return typeof value === 'boolean';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'string':
      return typeof value === 'string';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value);
    default:
      return true;
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function asSchemas(value: unknown): JsonSchema[] {
  return Array.isArray(value) ? (value.filter((item) => item && typeof item === 'object') as JsonSchema[]) : [];
}

function resolve(ref: string, root: JsonSchema): JsonSchema | undefined {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = root;
  for (const part of ref.slice(1).split('/').filter(Boolean)) {
    node = (node as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node && typeof node === 'object' ? (node as JsonSchema) : undefined;
}
