// Model listing: GET /v1/models (OpenAI shape, or Anthropic's or Gemini's by the caller's headers) and GET /v1beta/models (Gemini shape), from the call's provider catalogue; DELETE refused as for a model you do not own.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayContext } from '../context.ts';
import { GatewayError, notFound } from '../errors.ts';
import { catalogueShapeOf, renderModel, renderModelList, type CatalogueShape } from '../protocols/models.ts';
import { callOf } from '../server/call-context.ts';
import { shownPath } from '../server/shown-path.ts';

type IdParams = { Params: { id: string } };

export async function modelsRoutes(app: FastifyInstance, options: { context: GatewayContext }) {
  const { providers } = options.context;
  const list = async (request: FastifyRequest, reply: FastifyReply, shape: CatalogueShape, endpoint: string) => {
    const call = callOf(request, reply, shape, endpoint);
    return renderModelList(shape, await providers.for(call).models.list(call));
  };
  const one = async (request: FastifyRequest<IdParams>, reply: FastifyReply, shape: CatalogueShape, endpoint: string) => {
    const call = callOf(request, reply, shape, endpoint);
    const model = await providers.for(call, request.params.id).models.describe(request.params.id, call);
    if (!model) throw notFound(`The model '${request.params.id}' does not exist`, 'model');
    return renderModel(shape, model);
  };

  app.get('/v1/models', async (request, reply) => list(request, reply, catalogueShapeOf(request.headers, request.query), '/v1/models'));
  app.get<IdParams>('/v1/models/:id', async (request, reply) =>
    one(request, reply, catalogueShapeOf(request.headers, request.query), '/v1/models/:id'),
  );
  // Only fine-tuned models an organization made can be deleted; every model here is the gateway's, so the real API's refusal.
  app.delete<IdParams>('/v1/models/:id', async (request, reply) => {
    const call = callOf(request, reply, 'openai', '/v1/models/:id');
    const model = await providers.for(call, request.params.id).models.describe(request.params.id, call);
    if (!model) throw notFound(`The model '${request.params.id}' does not exist`, 'model');
    throw new GatewayError(
      'forbidden',
      `You do not have permission to delete the model '${request.params.id}': only fine-tuned models your organization owns can be deleted.`,
      'model',
    );
  });
  app.get('/v1beta/models', async (request, reply) => list(request, reply, 'gemini', '/v1beta/models'));
  app.get<IdParams>('/v1beta/models/:id', async (request, reply) => {
    if (request.params.id.includes(':')) throw notFound(`Unknown endpoint: GET ${shownPath(request.url)}`);
    return one(request, reply, 'gemini', '/v1beta/models/:id');
  });
}
