// Test helper: JSON Schemas of the OpenAI objects as the API reference documents them (chat completion, its chunk, legacy text completion).
import { validateAgainstSchema } from './json-schema-check.ts';

const nullable = (schema: Record<string, unknown>) => ({ anyOf: [schema, { type: 'null' }] });
const integer = { type: 'integer', minimum: 0 };

/** `usage` (CompletionUsage): the three counts, optionally with their detail objects. */
const USAGE = {
  type: 'object',
  required: ['prompt_tokens', 'completion_tokens', 'total_tokens'],
  additionalProperties: false,
  properties: {
    prompt_tokens: integer,
    completion_tokens: integer,
    total_tokens: integer,
    prompt_tokens_details: {
      type: 'object',
      additionalProperties: false,
      properties: { cached_tokens: integer, audio_tokens: integer },
    },
    completion_tokens_details: {
      type: 'object',
      additionalProperties: false,
      properties: {
        reasoning_tokens: integer,
        audio_tokens: integer,
        accepted_prediction_tokens: integer,
        rejected_prediction_tokens: integer,
      },
    },
  },
};

/** Fields every chat completion object and chunk carries at the top. */
const envelope = (object: string) => ({
  id: { type: 'string', minLength: 1 },
  object: { const: object },
  created: integer,
  model: { type: 'string', minLength: 1 },
  system_fingerprint: { type: 'string' },
  service_tier: nullable({ enum: ['auto', 'default', 'flex', 'scale', 'priority'] }),
});

const FINISH = ['stop', 'length', 'tool_calls', 'content_filter', 'function_call'];

/** The `chat.completion` object. */
export const CHAT_COMPLETION = {
  type: 'object',
  required: ['id', 'object', 'created', 'model', 'choices'],
  additionalProperties: false,
  properties: {
    ...envelope('chat.completion'),
    usage: USAGE,
    choices: {
      type: 'array',
      items: {
        type: 'object',
        required: ['index', 'message', 'finish_reason', 'logprobs'],
        additionalProperties: false,
        properties: {
          index: integer,
          finish_reason: { enum: FINISH },
          logprobs: nullable({ type: 'object' }),
          message: {
            type: 'object',
            required: ['role', 'content'],
            additionalProperties: false,
            properties: {
              role: { const: 'assistant' },
              content: { type: ['string', 'null'] },
              refusal: { type: ['string', 'null'] },
              annotations: { type: 'array' },
              tool_calls: {
                type: 'array',
                minItems: 1,
                items: {
                  type: 'object',
                  required: ['id', 'type', 'function'],
                  additionalProperties: false,
                  properties: {
                    id: { type: 'string', minLength: 1 },
                    type: { const: 'function' },
                    function: {
                      type: 'object',
                      required: ['name', 'arguments'],
                      additionalProperties: false,
                      properties: { name: { type: 'string' }, arguments: { type: 'string' } },
                    },
                  },
                },
              },
              function_call: {
                type: 'object',
                required: ['name', 'arguments'],
                additionalProperties: false,
                properties: { name: { type: 'string' }, arguments: { type: 'string' } },
              },
            },
          },
        },
      },
    },
  },
};

/** The `chat.completion.chunk` object of a stream. */
export const CHAT_COMPLETION_CHUNK = {
  type: 'object',
  required: ['id', 'object', 'created', 'model', 'choices'],
  additionalProperties: false,
  properties: {
    ...envelope('chat.completion.chunk'),
    usage: nullable(USAGE),
    choices: {
      type: 'array',
      items: {
        type: 'object',
        required: ['index', 'delta', 'finish_reason'],
        additionalProperties: false,
        properties: {
          index: integer,
          finish_reason: { enum: [...FINISH, null] },
          logprobs: nullable({ type: 'object' }),
          delta: {
            type: 'object',
            additionalProperties: false,
            properties: {
              role: { enum: ['developer', 'system', 'user', 'assistant', 'tool'] },
              content: { type: ['string', 'null'] },
              refusal: { type: ['string', 'null'] },
              function_call: {
                type: 'object',
                additionalProperties: false,
                properties: { name: { type: 'string' }, arguments: { type: 'string' } },
              },
              tool_calls: {
                type: 'array',
                items: {
                  type: 'object',
                  required: ['index'],
                  additionalProperties: false,
                  properties: {
                    index: integer,
                    id: { type: 'string' },
                    type: { const: 'function' },
                    function: {
                      type: 'object',
                      additionalProperties: false,
                      properties: { name: { type: 'string' }, arguments: { type: 'string' } },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
};

/** The legacy `text_completion` object, streamed or not (streamed choices carry `finish_reason: null` until the last). */
export const TEXT_COMPLETION = {
  type: 'object',
  required: ['id', 'object', 'created', 'model', 'choices'],
  additionalProperties: false,
  properties: {
    ...envelope('text_completion'),
    usage: USAGE,
    choices: {
      type: 'array',
      items: {
        type: 'object',
        required: ['text', 'index', 'logprobs', 'finish_reason'],
        additionalProperties: false,
        properties: {
          text: { type: 'string' },
          index: integer,
          logprobs: nullable({ type: 'object' }),
          finish_reason: { enum: ['stop', 'length', 'content_filter', null] },
        },
      },
    },
  },
};

/** The ways `value` departs from `shape`, each prefixed with `label` (empty when it conforms). */
export function shapeErrors(value: unknown, shape: Record<string, unknown>, label: string): string[] {
  return validateAgainstSchema(value, shape).map((error) => `${label}: ${error}`);
}
