// Generates a value that satisfies a JSON Schema (the subset clients use for tools and structured output), deterministically and within limits.
import {
  MAX_SCHEMA_GENERATION_STEPS,
  MAX_SCHEMA_OUTPUT_CHARS,
  MAX_SCHEMA_OUTPUT_TOKENS,
  MAX_SCHEMA_VALUE_DEPTH,
  SchemaLimitError,
} from '../../../protocols/neutral/schema-limits.ts';
import type { Random } from './seed.ts';
import { countTokens } from '../../../protocols/neutral/tokens.ts';
import type { JsonSchema } from '../../../protocols/neutral/chat.ts';

const WORDS = ['alpha', 'river', 'sample', 'orbit', 'maple', 'signal', 'harbor', 'quartz', 'ember', 'meadow'];

/** Deeper than this, arrays take their minItems and anyOf stops exploring (as before the limits existed). */
const DEEP = 6;

/** What generation has used so far; one budget is shared by every value of a request. */
export interface GenerationBudget {
  tokens: number;
  chars: number;
  steps: number;
}

/** A fresh, unused budget. */
export function newBudget(): GenerationBudget {
  return { tokens: 0, chars: 0, steps: 0 };
}

/** How one value is generated. */
export interface ValueOptions {
  /** Shared usage counters (a fresh budget when absent). */
  budget?: GenerationBudget;
  /** Tokens this value may take (the request's output limit). */
  outputLimit?: number;
  /** Past outputLimit: true throws TruncatedValue with the value so far, false a SchemaLimitError. */
  truncate?: boolean;
  /** The smallest value: minItems items, required properties only, null or non-$ref options of anyOf first. */
  minimal?: boolean;
}

/**
 * Thrown when a value passes `outputLimit` with `truncate` set: `partial` is the value generated so far, whose JSON
 * text begins with more than outputLimit tokens of the full value's text (only the closing brackets differ).
 */
export class TruncatedValue extends Error {
  readonly partial: unknown;
  constructor(partial: unknown) {
    super('the value passed the output token limit');
    this.partial = partial;
  }
}

/**
 * A value valid against `schema`; `$ref`s resolve within `schema` (`#`, `#/$defs/…`, `#/definitions/…`). Work and size
 * are counted as the value grows and bounded (json-schema-limits.ts); a breach throws SchemaLimitError, or TruncatedValue.
 */
export function valueFor(schema: JsonSchema, random: Random, options: ValueOptions = {}): unknown {
  return new Generator(schema, random, options).value(schema, 0, []);
}

class Generator {
  private readonly root: JsonSchema;
  private readonly random: Random;
  private readonly options: ValueOptions;
  private readonly budget: GenerationBudget;
  private readonly start: number;
  constructor(root: JsonSchema, random: Random, options: ValueOptions) {
    this.root = root;
    this.random = random;
    this.options = options;
    this.budget = options.budget ?? newBudget();
    this.start = this.budget.tokens;
  }

  value(raw: unknown, depth: number, chain: readonly string[]): unknown {
    const schema = asSchema(raw);
    this.step();
    if (depth > MAX_SCHEMA_VALUE_DEPTH) {
      throw new SchemaLimitError(
        'value_depth',
        `a value would nest deeper than ${MAX_SCHEMA_VALUE_DEPTH} levels (a required $ref back to an enclosing schema never ends)`,
      );
    }
    const ref = schema['$ref'];
    if (typeof ref === 'string') {
      if (chain.includes(ref))
        throw new SchemaLimitError('ref_cycle', `$ref '${ref}' leads back to itself without nesting, so it never resolves to a value`);
      return this.value(resolveRef(ref, this.root), depth + 1, [...chain, ref]);
    }
    if ('const' in schema) return this.primitive(schema['const']);
    if (Array.isArray(schema['enum']) && schema['enum'].length > 0) return this.primitive(this.random.pick(schema['enum']));
    for (const key of ['anyOf', 'oneOf'] as const) {
      const options = schema[key];
      if (Array.isArray(options) && options.length > 0) return this.choice(options.map(asSchema), depth, chain);
    }
    if (Array.isArray(schema['allOf'])) {
      // One level of allOf is merged here; the members' own allOf lists stay for the next step.
      const members = schema['allOf'].map(asSchema);
      const inner = members.flatMap((member) => (Array.isArray(member['allOf']) ? member['allOf'] : []));
      const merged = Object.assign({}, ...members, { allOf: inner.length > 0 ? inner : undefined }) as JsonSchema;
      return this.value(merged, depth + 1, chain);
    }
    switch (typeOf(schema)) {
      case 'null':
        return this.primitive(null);
      case 'boolean':
        return this.primitive(this.random.int(2) === 1);
      case 'integer':
        return this.primitive(integerFor(schema, this.random));
      case 'number':
        return this.primitive(
          integerFor(schema, this.random) + (schema['multipleOf'] === undefined && schema['maximum'] === undefined ? 0.5 : 0),
        );
      case 'string':
        return this.string(schema);
      case 'array':
        return this.array(schema, depth);
      default:
        return this.object(schema, depth);
    }
  }

  /** Counts one unit of work; steps are never given back (unlike tokens and characters of a discarded option), so discarded work is bounded too. */
  private step(): void {
    if (++this.budget.steps > MAX_SCHEMA_GENERATION_STEPS)
      throw new SchemaLimitError('value_size', `generating a value takes more than ${MAX_SCHEMA_GENERATION_STEPS} steps`);
  }

  /** The first concrete option (null ones first when minimal); the others in turn when it recurses without end. */
  private choice(options: JsonSchema[], depth: number, chain: readonly string[]): unknown {
    const nulls = options.filter((option) => option['type'] === 'null');
    const concrete = options.filter((option) => option['type'] !== 'null');
    const order = this.options.minimal
      ? [...nulls, ...concrete.filter((option) => !('$ref' in option)), ...concrete.filter((option) => '$ref' in option)]
      : [concrete[0] ?? options[0]!, ...options.filter((option) => option !== (concrete[0] ?? options[0]))];
    let failure: SchemaLimitError | undefined;
    for (const option of order) {
      const mark = { tokens: this.budget.tokens, chars: this.budget.chars };
      try {
        return this.value(option, depth + 1, chain);
      } catch (error) {
        if (!(error instanceof SchemaLimitError) || (error.reason !== 'ref_cycle' && error.reason !== 'value_depth')) throw error;
        Object.assign(this.budget, mark);
        failure ??= error;
      }
    }
    throw failure!;
  }

  private string(schema: JsonSchema): string {
    const formatted = formattedString(schema, this.random);
    if (formatted !== undefined) return this.primitive(formatted);
    const minLength = numberOr(schema['minLength'], 0);
    const maxLength = numberOr(schema['maxLength'], Infinity);
    if (minLength + 2 > MAX_SCHEMA_OUTPUT_CHARS - this.budget.chars) {
      throw new SchemaLimitError('value_size', `a string of minLength ${minLength} does not fit in ${MAX_SCHEMA_OUTPUT_CHARS} characters`);
    }
    let text = this.random.pick(WORDS);
    let words = 1;
    while (text.length < minLength) {
      // The opening quote and every word so far are tokens of the output; stop before they pass a limit.
      this.check(this.budget.tokens + words + 1, this.budget.chars, text);
      this.step(); // Each word is work, also when the option it belongs to is discarded later.
      text += ` ${this.random.pick(WORDS)}`;
      words++;
    }
    return this.primitive(text.slice(0, Math.max(minLength, Math.min(maxLength, text.length))));
  }

  private array(schema: JsonSchema, depth: number): unknown[] {
    const min = numberOr(schema['minItems'], 1);
    const max = numberOr(schema['maxItems'], Math.max(min, 2));
    const length = Math.max(
      0,
      Math.floor(this.options.minimal || depth > DEEP ? min : Math.min(max, Math.max(min, 1 + this.random.int(2)))),
    );
    if (2 * length + 1 > MAX_SCHEMA_OUTPUT_CHARS - this.budget.chars) {
      throw new SchemaLimitError('value_size', `an array of ${length} items does not fit in ${MAX_SCHEMA_OUTPUT_CHARS} characters`);
    }
    const items = schema['items'] ?? { type: 'string' };
    const seen = schema['uniqueItems'] === true ? new Set<string>() : undefined;
    const values: unknown[] = [];
    let pending = false;
    const draw = () => {
      const mark = { tokens: this.budget.tokens, chars: this.budget.chars };
      pending = true;
      if (values.length > 0) this.spend(1, 1);
      const value = this.value(items, depth + 1, []);
      pending = false;
      const key = seen && JSON.stringify(value);
      if (seen && seen.has(key!)) {
        Object.assign(this.budget, mark);
        return;
      }
      values.push(value);
      seen?.add(key!);
    };
    try {
      this.spend(1, 1);
      for (let i = 0; i < length; i++) draw();
      for (let tries = 0; seen && seen.size < min && tries < 50; tries++) draw();
      this.spend(1, 1);
    } catch (error) {
      if (!(error instanceof TruncatedValue)) throw error;
      if (pending) values.push(error.partial ?? null);
      throw new TruncatedValue(values);
    }
    return values;
  }

  private object(schema: JsonSchema, depth: number): Record<string, unknown> {
    const properties = isRecord(schema['properties']) ? (schema['properties'] as Record<string, unknown>) : {};
    const required = new Set(Array.isArray(schema['required']) ? schema['required'].filter((name) => typeof name === 'string') : []);
    const additional = schema['additionalProperties'];
    // Required names without a declared property take the additionalProperties schema (or a string).
    const extra: JsonSchema = additional && typeof additional === 'object' ? (additional as JsonSchema) : { type: 'string' };
    const out: Record<string, unknown> = {};
    const names = new Set<string>();
    let pending: string | undefined;
    const emit = (name: string, property: unknown) => {
      pending = name;
      if (names.size > 0) this.spend(1, 1);
      const key = JSON.stringify(name);
      this.spend(countTokens(key) + 1, key.length + 1);
      define(out, name, this.value(property, depth + 1, []));
      names.add(name);
      pending = undefined;
    };
    try {
      this.spend(1, 1);
      for (const [name, property] of Object.entries(properties)) {
        if (required.has(name) || (!this.options.minimal && depth < 3)) emit(name, property);
      }
      for (const name of required) if (!names.has(name)) emit(name, extra);
      this.spend(1, 1);
    } catch (error) {
      if (!(error instanceof TruncatedValue)) throw error;
      if (pending !== undefined) define(out, pending, error.partial ?? null);
      throw new TruncatedValue(out);
    }
    return out;
  }

  /** Counts a finished scalar (or const/enum value) and returns it. */
  private primitive<T>(value: T): T {
    const json = JSON.stringify(value) ?? 'null';
    this.spend(countTokens(json), json.length, value);
    return value;
  }

  private spend(tokens: number, chars: number, partial?: unknown): void {
    this.budget.tokens += tokens;
    this.budget.chars += chars;
    this.check(this.budget.tokens, this.budget.chars, partial);
  }

  /** Throws when `tokens`/`chars` (totals of the request) pass a limit: the output limit first, then the hard caps. */
  private check(tokens: number, chars: number, partial: unknown): void {
    const { outputLimit, truncate } = this.options;
    if (outputLimit !== undefined && tokens - this.start > outputLimit) {
      if (truncate) throw new TruncatedValue(partial);
      throw new SchemaLimitError('output_limit', `the value needs more than ${outputLimit} tokens`);
    }
    if (tokens > MAX_SCHEMA_OUTPUT_TOKENS)
      throw new SchemaLimitError(
        'value_size',
        `the value needs more than ${MAX_SCHEMA_OUTPUT_TOKENS} tokens (check minItems and minLength)`,
      );
    if (chars > MAX_SCHEMA_OUTPUT_CHARS)
      throw new SchemaLimitError(
        'value_size',
        `the value needs more than ${MAX_SCHEMA_OUTPUT_CHARS} characters (check minItems and minLength)`,
      );
  }
}

/** Booleans and other non-objects (`true`, `items: 1`) accept anything: read as `{}`. */
function asSchema(value: unknown): JsonSchema {
  return value !== null && typeof value === 'object' ? (value as JsonSchema) : {};
}

function isRecord(value: unknown): boolean {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Sets an own property, also for names such as `__proto__`. */
function define(target: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
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

/** The fixed-shape strings of the known formats; undefined for free text. */
function formattedString(schema: JsonSchema, random: Random): string | undefined {
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
  return undefined;
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

/** The sub-schema a local `$ref` points at (own properties only); `{}` when it points nowhere. */
function resolveRef(ref: string, root: JsonSchema): unknown {
  const path = ref.replace(/^#\/?/, '').split('/').filter(Boolean);
  let node: unknown = root;
  for (const part of path) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    node = node !== null && typeof node === 'object' && Object.hasOwn(node, key) ? (node as Record<string, unknown>)[key] : undefined;
  }
  return node ?? {};
}
