// Routes of 3D generation: create a task, query it in the spec's shape, and download its result file by capability URL.
import { readFile } from 'node:fs/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { GatewayContext } from '../context.ts';
import { objectBody, optionalString } from '../protocols/fields.ts';
import { invalid, notFound } from '../services/errors.ts';
import { isHttpsUrl } from '../services/portrait-input.ts';
import { TASK3D_FORMATS, type Task3dFormat } from '../services/tasks3d.ts';

/** The origin the caller used, for absolute file URLs. */
function originOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.headers.host ?? request.hostname}`;
}

export async function tasks3dRoutes(app: FastifyInstance, options: { context: GatewayContext }) {
  const { tasks3d } = options.context;

  app.post('/v1/3d/generations', async (request) => {
    const fields = objectBody(request.body);
    const model = optionalString(fields, 'model') || 'sim-3d';
    const prompt = optionalString(fields, 'prompt') ?? '';
    const imageUrl = optionalString(fields, 'image_url') ?? null;
    if (imageUrl !== null && !isHttpsUrl(imageUrl)) throw invalid("Invalid value for 'image_url': expected an https:// URL.", 'image_url');
    if (prompt.trim() === '' && imageUrl === null) throw invalid("Missing required parameter: 'prompt' (or 'image_url').", 'prompt');
    const format = (optionalString(fields, 'format') ?? 'glb').toLowerCase();
    if (!(format in TASK3D_FORMATS)) {
      throw invalid(`Invalid value for 'format': expected one of ${Object.keys(TASK3D_FORMATS).join(', ')}.`, 'format');
    }
    return tasks3d.create(request.principal, { model, prompt, imageUrl, format: format as Task3dFormat }, originOf(request));
  });

  app.get<{ Params: { id: string } }>('/v1/3d/generations/:id', async (request) =>
    tasks3d.get(request.principal.accountId, request.params.id, originOf(request)),
  );

  app.get<{ Params: { name: string } }>('/v1/3d/files/:name', { config: { public: true } }, async (request, reply) => {
    const file = tasks3d.file(request.params.name);
    const bytes = file && (await readFile(file.path).catch(() => undefined));
    if (!file || !bytes) throw notFound('No such file');
    return reply.type(file.contentType).header('cache-control', 'private, max-age=31536000, immutable').send(bytes);
  });
}
