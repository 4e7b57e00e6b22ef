// Routes of 3D generation: create a task, query it in the spec's shape, and download its result file by capability URL.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { GatewayContext } from '../context.ts';
import { FIELD_LIMITS } from '../../../shared/field-limits.ts';
import { objectBody, optionalString } from '../protocols/fields.ts';
import { invalid, notFound } from '../errors.ts';
import { isHttpsUrl } from '../services/portrait-input.ts';
import { callOf } from '../server/call-context.ts';
import { listenerUrlOf } from '../server/listener-url.ts';
import { TASK3D_FORMATS, type Task3dFormat } from '../services/tasks3d.ts';

/** `value` when it has at most `max` characters; longer is a 400 naming the field (nothing is stored). */
function atMost(value: string | undefined, field: string, max: number): string | undefined {
  if (value !== undefined && value.length > max)
    throw invalid(
      `Invalid '${field}': string too long. Expected a string with maximum length ${max}, but got a string with length ${value.length} instead.`,
      field,
    );
  return value;
}

export async function tasks3dRoutes(app: FastifyInstance, options: { context: GatewayContext }) {
  const { tasks3d, runtime } = options.context;
  /** The gateway's own URL on the caller's listener, for absolute file URLs (never the request's Host). */
  const originOf = (request: FastifyRequest) => listenerUrlOf(request, runtime);

  app.post('/v1/3d/generations', async (request, reply) => {
    const fields = objectBody(request.body);
    const model = atMost(optionalString(fields, 'model'), 'model', FIELD_LIMITS.model) || 'sim-3d';
    const prompt = atMost(optionalString(fields, 'prompt'), 'prompt', FIELD_LIMITS.prompt3d) ?? '';
    const imageUrl = atMost(optionalString(fields, 'image_url'), 'image_url', FIELD_LIMITS.url) ?? null;
    if (imageUrl !== null && !isHttpsUrl(imageUrl)) throw invalid("Invalid value for 'image_url': expected an https:// URL.", 'image_url');
    if (prompt.trim() === '' && imageUrl === null) throw invalid("Missing required parameter: 'prompt' (or 'image_url').", 'prompt');
    const format = (optionalString(fields, 'format') ?? 'glb').toLowerCase();
    if (!(format in TASK3D_FORMATS)) {
      throw invalid(`Invalid value for 'format': expected one of ${Object.keys(TASK3D_FORMATS).join(', ')}.`, 'format');
    }
    const call = callOf(request, reply, 'tasks3d', '/v1/3d/generations');
    return tasks3d.create({ model, prompt, imageUrl, format: format as Task3dFormat }, originOf(request), call);
  });

  app.get<{ Params: { id: string } }>('/v1/3d/generations/:id', async (request) =>
    tasks3d.get(request.principal.accountId, request.params.id, originOf(request)),
  );

  app.get<{ Params: { name: string } }>('/v1/3d/files/:name', { config: { public: true } }, async (request, reply) => {
    const file = await tasks3d.file(request.params.name);
    if (!file) throw notFound('No such file');
    return reply.type(file.contentType).header('cache-control', 'private, max-age=31536000, immutable').send(file.bytes);
  });
}
