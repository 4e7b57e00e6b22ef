// The table of route families the app registers, one plugin per API family.
import type { GatewayContext } from '../context.ts';
import type { RouteFamily as AppRouteFamily } from '../server/app.ts';
import { adminRoutes } from './admin.ts';
import { adminSocketRoutes } from './admin-socket.ts';
import { anthropicMessagesRoutes } from './anthropic-messages.ts';
import { geminiRoutes } from './gemini.ts';
import { openaiResponsesRoutes } from './openai-responses.ts';
import { openaiConversationsRoutes } from './openai-conversations.ts';
import { consoleRoutes } from './console.ts';
import { embeddingsRoutes } from './openai-embeddings.ts';
import { healthRoutes } from './health.ts';
import { homeRoutes } from './home.ts';
import { audioRoutes } from './openai-audio.ts';
import { imagesRoutes } from './openai-images.ts';
import { modelsRoutes } from './models.ts';
import { openaiChatRoutes } from './openai-chat.ts';
import { openaiChatStoreRoutes } from './openai-chat-store.ts';
import { batchesRoutes } from './openai-batches.ts';
import { filesRoutes } from './openai-files.ts';
import { moderationsRoutes } from './openai-moderations.ts';
import { openaiCompletionsRoutes } from './openai-completions.ts';
import { realtimeRoutes } from './realtime.ts';
import { rerankRoutes } from './rerank.ts';
import { tasks3dRoutes } from './tasks3d.ts';
import { portraitRoutes } from './portrait.ts';

/** A route family: a Fastify plugin that receives the gateway context. */
export type RouteFamily = AppRouteFamily<GatewayContext>;

/** Every route family of plain HTTP routes, registered in this order. Add a family here (or, for WebSocket routes, in SOCKET_ROUTE_FAMILIES below) and nowhere else. */
export const ROUTE_FAMILIES: readonly RouteFamily[] = [
  healthRoutes,
  homeRoutes,
  portraitRoutes,
  adminRoutes,
  consoleRoutes,
  modelsRoutes,
  openaiChatRoutes,
  openaiChatStoreRoutes,
  openaiCompletionsRoutes,
  embeddingsRoutes,
  rerankRoutes,
  anthropicMessagesRoutes,
  geminiRoutes,
  openaiResponsesRoutes,
  openaiConversationsRoutes,
  tasks3dRoutes,
  imagesRoutes,
  audioRoutes,
  moderationsRoutes,
  filesRoutes,
  batchesRoutes,
];

/** The route families of WebSocket routes: registered after the others, in the one scope @fastify/websocket serves. */
export const SOCKET_ROUTE_FAMILIES: readonly RouteFamily[] = [adminSocketRoutes, realtimeRoutes];
