// The limits on client-sent JSON schemas and on the values generated from them, and the error that reports a breach.
import { GatewayError } from '../../errors.ts';
import type { ChatRequest, JsonSchema } from './chat.ts';

/** Deepest nesting of one schema document (JSON levels, const/enum contents included). */
export const MAX_SCHEMA_DEPTH = 64;
/** Most JSON values (objects, arrays, strings, numbers, …) in one schema document. */
export const MAX_SCHEMA_NODES = 10_000;
/** Most tokens of schema-generated JSON per request, across all choices (the request's output limit applies too). */
export const MAX_SCHEMA_OUTPUT_TOKENS = 65_536;
/** Most characters of schema-generated JSON per request, across all choices. */
export const MAX_SCHEMA_OUTPUT_CHARS = 524_288;
/** Deepest nesting while generating one value (each $ref, anyOf/allOf, property and item is one level). */
export const MAX_SCHEMA_VALUE_DEPTH = 64;
/** Most generation steps (one per sub-schema visited, retries included) per request. */
export const MAX_SCHEMA_GENERATION_STEPS = 200_000;

/** Why a schema was refused. */
export type SchemaLimitReason = 'schema_depth' | 'schema_size' | 'ref_cycle' | 'value_depth' | 'value_size' | 'output_limit';

/** A schema that is too big, or whose values cannot be generated within the limits above: a 400 in every protocol. */
export class SchemaLimitError extends GatewayError {
  readonly reason: SchemaLimitReason;
  constructor(reason: SchemaLimitReason, message: string) {
    super('invalid_request', message);
    this.reason = reason;
  }
}

/**
 * Walks the whole schema document without recursion and throws a SchemaLimitError when it nests deeper than
 * MAX_SCHEMA_DEPTH or holds more than MAX_SCHEMA_NODES values; `label` names the schema in the message.
 */
export function checkSchemaDocument(schema: JsonSchema, label: string): void {
  const stack: Array<[unknown, number]> = [[schema, 1]];
  let nodes = 0;
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    nodes++;
    if (value === null || typeof value !== 'object') continue;
    if (depth > MAX_SCHEMA_DEPTH)
      throw new SchemaLimitError('schema_depth', `The ${label} is nested deeper than ${MAX_SCHEMA_DEPTH} levels.`);
    for (const item of Object.values(value)) stack.push([item, depth + 1]);
    if (nodes + stack.length > MAX_SCHEMA_NODES)
      throw new SchemaLimitError('schema_size', `The ${label} is too large: more than ${MAX_SCHEMA_NODES} JSON values.`);
  }
}

/** The generator's reason, said for the caller: `The <label> cannot be satisfied within the gateway's limits: <detail>.` */
export function unsatisfiable(error: SchemaLimitError, label: string): SchemaLimitError {
  const limits = error.reason === 'output_limit' ? "the request's output token limit" : "the gateway's limits";
  return new SchemaLimitError(error.reason, `The ${label} cannot be satisfied within ${limits}: ${error.message}.`);
}

/** The name of a tool's parameters schema in error messages. */
export const toolSchemaLabel = (name: string) => `parameters schema of tool '${name}'`;
/** The name of a json_schema response format in error messages. */
export const FORMAT_SCHEMA_LABEL = 'JSON schema of the response format';

/** Refuses (SchemaLimitError) any schema of the request — tool parameters, response format — that is too deep or too large. */
export function checkRequestSchemas(request: ChatRequest): void {
  for (const tool of request.tools ?? []) checkSchemaDocument(tool.parameters, toolSchemaLabel(tool.name));
  if (request.format?.type === 'json_schema') checkSchemaDocument(request.format.schema, FORMAT_SCHEMA_LABEL);
}
