// Normalises Gemini's OpenAPI-subset schemas (uppercase types, `nullable`) into the JSON Schema the engine understands.
import { checkSchemaDocument } from '../../neutral/schema-limits.ts';
import { isObject } from '../../fields.ts';

/** Keys of the OpenAPI subset with no JSON Schema meaning, dropped on the way. */
const DROPPED = new Set(['nullable', 'propertyOrdering', 'example']);

/**
 * A Gemini `Schema` (`{type: "OBJECT", properties: {...}, nullable: true}`) as JSON Schema
 * (`{type: ["object", "null"], ...}`). Sub-schemas under properties, items and anyOf are converted too;
 * a schema that is already JSON Schema passes through unchanged. A schema too deep or too large (json-schema-limits.ts)
 * is refused before it is converted; `label` names it in that error.
 */
export function geminiSchemaToJsonSchema(schema: Record<string, unknown>, label = 'schema'): Record<string, unknown> {
  checkSchemaDocument(schema, label);
  return convertSchema(schema);
}

function convertSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DROPPED.has(key) || value === undefined || value === null) continue;
    if (key === 'type') {
      const type = typeName(value);
      if (type !== undefined) out['type'] = type;
    } else if (key === 'properties' && isObject(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, convert(sub)]));
    } else if (key === 'items' || key === 'additionalProperties') {
      out[key] = isObject(value) ? convertSchema(value) : value;
    } else if ((key === 'anyOf' || key === 'oneOf' || key === 'allOf') && Array.isArray(value)) {
      out[key] = value.map(convert);
    } else {
      out[key] = value;
    }
  }
  if (schema['nullable'] === true && typeof out['type'] === 'string') out['type'] = [out['type'], 'null'];
  return out;
}

function convert(value: unknown): unknown {
  return isObject(value) ? convertSchema(value) : value;
}

/** `OBJECT` → `object`; `TYPE_UNSPECIFIED` means no type constraint. */
function typeName(value: unknown): unknown {
  if (typeof value === 'string') return value === 'TYPE_UNSPECIFIED' ? undefined : value.toLowerCase();
  if (Array.isArray(value)) return value.map((item) => (typeof item === 'string' ? item.toLowerCase() : item));
  return value;
}
