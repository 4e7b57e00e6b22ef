// The Files API: upload (multipart, `purpose`), list, retrieve, content and delete, per account.
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { GatewayContext } from '../context.ts';
import { invalid } from '../errors.ts';
import { parseFileUpload, renderFile } from '../protocols/openai/inbound/files.ts';
import { parseListQuery, renderList } from '../protocols/openai/cursor-list.ts';
import { formLimits, formParts } from '../server/multipart.ts';
import { MAX_UPLOAD_FILE_BYTES, uploadLimitError } from '../services/media-limits.ts';

type IdParams = { Params: { id: string } };

/** As on the real API: up to 10,000 per page, newest first. */
const FILES_LIST = { defaultLimit: 10_000, maxLimit: 10_000, defaultOrder: 'desc' } as const;

export async function filesRoutes(app: FastifyInstance, options: { context: GatewayContext }) {
  const { files } = options.context;
  await app.register(multipart, { limits: formLimits(1, MAX_UPLOAD_FILE_BYTES) });

  app.post('/v1/files', async (request) => {
    if (!request.isMultipart()) throw invalid('Send the file as multipart/form-data with a `file` and a `purpose`.', 'file');
    const fields: Record<string, unknown> = {};
    let file: { filename: string; bytes: Buffer } | undefined;
    try {
      for await (const part of formParts(request, { keepFile: (field) => field === 'file' })) {
        if (part.kind === 'field') fields[part.field] = part.value;
        else file = { filename: part.filename, bytes: part.bytes };
      }
    } catch (error) {
      throw uploadLimitError(error);
    }
    const upload = parseFileUpload(fields);
    if (!file) throw invalid("Missing required parameter: 'file'.", 'file');
    return renderFile(files.create(request.principal.accountId, { ...file, ...upload }));
  });

  app.get('/v1/files', async (request) => {
    const query = parseListQuery(request.query, FILES_LIST);
    const purpose = (request.query as Record<string, unknown>)['purpose'];
    const page = files.list(request.principal.accountId, typeof purpose === 'string' ? purpose : undefined, query);
    return renderList(page.rows.map(renderFile), page.hasMore);
  });

  app.get<IdParams>('/v1/files/:id', async (request) => renderFile(files.get(request.principal.accountId, request.params.id)));

  app.get<IdParams>('/v1/files/:id/content', async (request, reply) => {
    const bytes = await files.content(request.principal.accountId, request.params.id);
    return reply.type('application/octet-stream').send(bytes);
  });

  app.delete<IdParams>('/v1/files/:id', async (request) => {
    files.delete(request.principal.accountId, request.params.id);
    return { id: request.params.id, object: 'file', deleted: true };
  });
}
