// Schema-driven output of one request within its limits: tries the usual value, falls back to the smallest, refuses the impossible.
import {
  checkSchemaDocument,
  FORMAT_SCHEMA_LABEL,
  SchemaLimitError,
  toolSchemaLabel,
  unsatisfiable,
} from '../../../protocols/neutral/schema-limits.ts';
import { newBudget, TruncatedValue, valueFor } from './json-schema-value.ts';
import { seededRandom, type Random } from './seed.ts';
import { streamPieces } from '../../../protocols/neutral/stream-pieces.ts';
import type { JsonSchema } from '../../../protocols/neutral/chat.ts';

/**
 * Refuses a schema that is too large or whose smallest value does not fit the gateway's limits, at the time it is
 * declared (realtime `session.update`), so a later response cannot fail on it.
 */
export function checkSchemaSatisfiable(schema: JsonSchema, label: string): void {
  checkSchemaDocument(schema, label);
  smallest(schema, seededRandom(label), newBudget(), label);
}

/** Generates every schema-driven value of one request; the hard caps of json-schema-limits.ts hold for the whole request. */
export class RequestSchemaValues {
  private readonly usual = newBudget();
  private readonly fallback = newBudget();
  private readonly satisfiable = new Set<JsonSchema>();

  /**
   * JSON text for a json_schema response format. Past `outputLimit` the text is the value's first outputLimit + 1
   * tokens (the caller cuts it at the limit), once the schema is known to be satisfiable at all.
   */
  formatText(schema: JsonSchema, random: Random, outputLimit: number | undefined): string {
    try {
      return JSON.stringify(valueFor(schema, random, { budget: this.usual, outputLimit, truncate: true }));
    } catch (error) {
      if (error instanceof TruncatedValue) {
        if (!this.satisfiable.has(schema)) smallest(schema, random, this.fallback, FORMAT_SCHEMA_LABEL);
        this.satisfiable.add(schema);
        return streamPieces(JSON.stringify(error.partial ?? null))
          .slice(0, outputLimit! + 1)
          .join('');
      }
      if (!(error instanceof SchemaLimitError)) throw error;
      return JSON.stringify(smallest(schema, random, this.fallback, FORMAT_SCHEMA_LABEL));
    }
  }

  /** JSON arguments for a call of a tool; they must fit `outputLimit` whole, or the request is refused. */
  toolArguments(name: string, schema: JsonSchema, random: Random, outputLimit: number | undefined): string {
    try {
      return JSON.stringify(valueFor(schema, random, { budget: this.usual, outputLimit }));
    } catch (error) {
      if (!(error instanceof SchemaLimitError)) throw error;
      return JSON.stringify(smallest(schema, random, this.fallback, toolSchemaLabel(name), outputLimit));
    }
  }
}

/** The smallest value of `schema`, or the caller-facing SchemaLimitError saying why there is none within the limits. */
function smallest(schema: JsonSchema, random: Random, budget: ReturnType<typeof newBudget>, label: string, outputLimit?: number): unknown {
  try {
    return valueFor(schema, random, { budget, minimal: true, outputLimit });
  } catch (error) {
    throw error instanceof SchemaLimitError ? unsatisfiable(error, label) : error;
  }
}
