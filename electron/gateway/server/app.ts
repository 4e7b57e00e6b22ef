// Builds the Fastify app: body parsing, authentication, errors in each caller's protocol, and every route family.
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { GatewayError, invalid } from '../errors.ts';
import type { CallNotes, Principal } from '../principal.ts';
import type { JournalRecorder } from '../services/journal.ts';
import type { TokenHolder, TokensService } from '../services/tokens.ts';
import type { UsageStatsService } from '../services/usage-stats.ts';
import type { Clock } from '../time.ts';
import { installJsonParser } from './body-parser.ts';
import { CONNECTION_LIMITS, markAuthenticated, markUpgraded, serverOptionsOf, type ConnectionLimits } from './connection-guard.ts';
import { corsStep } from './cors.ts';
import { credentialOf } from './credentials.ts';
import { renderError } from './error-render.ts';
import { installRetryHints, RETRY_HINT_HEADER, retryHint } from './retry-hint.ts';
import { faultStep, type FaultCounters } from './faults.ts';
import type { JournalRelay } from '../../../shared/journal.ts';
import { hostCheckStep } from './host-check.ts';
import type { HostPolicy } from './host-names.ts';
import { callCounter } from './call-counting.ts';
import { dropAbandonedStep, watchClientStep } from './call-context.ts';
import { callCaptureStep } from './journal-capture.ts';
import { installCassetteTap, type TapRecorder } from './cassette-tap.ts';
import { installReplayNotes } from './replay-notes.ts';
import type { CassetteAdmin } from '../../../shared/cassette-admin.ts';
import { pathOf, protocolOf } from './protocol.ts';
import { lazySchemaCompilers } from './schema-compilers.ts';
import { requestIdOf, requestIdStep } from './request-ids.ts';
import { REQUEST_ID_HEADER } from '../../../shared/test-ids.ts';
import { shownPath } from './shown-path.ts';
import { isUpgrade, SocketScope, type SocketSettings } from './socket-scope.ts';
import { syncSteps, type SyncStep } from './sync-hook.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller; set on every route that is not marked public. */
    principal: Principal;
    /** The refusal of a token that was found but may not be used (revoked, expired, out of quota), answered once the body is read. */
    refusal?: GatewayError;
    /** How a relayed call went (channel, upstream model, each try), for its journal entry. */
    journalRelay?: JournalRelay;
    /** Where the services note this call's charges and first output for its journal entry (journaled calls only). */
    callNotes?: CallNotes;
  }
  interface FastifyContextConfig {
    /** Routes that need no API token. */
    public?: boolean;
    /** WebSocket routes that accept an upgrade with a refused token and say why over the socket (as the OpenAI realtime API does). */
    socketAuth?: boolean;
  }
}

/** Largest request body accepted, in bytes. */
export const BODY_LIMIT = 32 * 1024 * 1024;

/** The parts of the gateway context the app itself uses (the route families get the whole context). */
export interface AppContext {
  readonly runtime: { readonly hosts: HostPolicy; readonly journal: boolean; readonly corsOrigins: readonly string[] };
  readonly journal: JournalRecorder;
  readonly clock: Clock;
  readonly tokens: Pick<TokensService, 'authenticate' | 'holderOf'>;
  /** Counts every API call of a known token for the usage dashboard (journal on or off). */
  readonly usageStats: Pick<UsageStatsService, 'count'>;
  readonly events: { emit(event: 'error', error: unknown): boolean };
  /** The counted faults' attempts, per test id. */
  readonly faults: FaultCounters;
  /** `--record`: the recorder every finished exchange is handed to. */
  readonly cassettes?: { readonly recorder?: TapRecorder };
  /** Told which cassette answered each replayed call; absent where nothing replays (tests of the app alone). */
  readonly cassetteFolder?: Pick<CassetteAdmin, 'replaying' | 'replayed'>;
}

/** A route family: a Fastify plugin that receives the gateway context. */
export type RouteFamily<C> = (app: FastifyInstance, options: { context: C }) => Promise<void>;

/** What the composition root hands the app: the context, the route table and the socket settings of the routes. */
export interface AppSetup<C extends AppContext> extends SocketSettings {
  context: C;
  /** Every route family of plain HTTP routes, registered in this order. */
  routes: readonly RouteFamily<C>[];
  /** The route families of WebSocket routes, registered after `routes` in a scope of their own (see socket-scope.ts). */
  sockets: readonly RouteFamily<C>[];
  limits?: ConnectionLimits;
}

export async function buildApp<C extends AppContext>(setup: AppSetup<C>): Promise<FastifyInstance> {
  const { context, routes, sockets: socketRoutes, limits = CONNECTION_LIMITS } = setup;
  const app = Fastify({
    logger: false,
    bodyLimit: BODY_LIMIT,
    return503OnClosing: true,
    http: serverOptionsOf(limits),
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // request.id is the answer's x-request-id (the caller's plain one, else a new req_…).
    requestIdHeader: false,
    genReqId: requestIdOf,
    // ajv and fast-json-stringify load only if a route ever declares a schema.
    schemaController: { compilersFactory: lazySchemaCompilers },
    // A URL Fastify cannot route (bad percent-encoding, an overlong path segment): answered in the caller's protocol, never echoed (it may carry ?key=).
    frameworkErrors: (error, request, reply) => {
      const message =
        error.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? 'A path segment of the request URL is too long.'
          : 'The request URL is malformed (bad percent-encoding).';
      const { status, body } = renderError(protocolOf(pathOf(request)), invalid(message));
      return (reply as FastifyReply).header(REQUEST_ID_HEADER, request.id).status(status).send(body);
    },
  });
  installJsonParser(app);
  app.decorateRequest('principal', null as unknown as Principal);
  app.decorateRequest('urlPath', undefined);

  // The WebSocket routes are registered last, in a scope of their own; what an upgrade needs elsewhere is done here.
  const sockets = new SocketScope();

  // The app's own onRequest steps and the call capture's run as one hook (one turn of Fastify's hook runner instead of
  // one per step), in the order they would have as hooks of their own; the cassette tap and the replay notes, when on,
  // are hooks of their own between the capture and the rest, so the steps then run as two hooks around them.
  const arrival: SyncStep[] = [
    // First of all: every answer, a refusal of the Host check included, carries its x-request-id (an upgrade: its 101,
    // and its socket closes once an HTTP answer refused it).
    requestIdStep((request, reply) => sockets.arrived(request, reply)),
    // Before anything else reads the request: a foreign Host (DNS rebinding) is refused, and not journaled.
    hostCheckStep(() => context.runtime.hosts),
    // From the arrival of each request on: a client that leaves aborts its call, however early (see call-context.ts).
    watchClientStep,
    // First after the Host check, so every call's end is seen; calls that name no token are counted there, not journaled.
    // Every API answer names its source (fixture, relay channel, simulator) in a header, journal on or off.
    // Every API call of a known token also counts in the dashboard's totals, whether or not the journal is on.
    callCaptureStep({
      clock: context.clock,
      journal: context.runtime.journal ? { recorder: context.journal, holderOf: (request) => holderOf(context, request) } : null,
      count: callCounter({
        stats: context.usageStats,
        holderOf: (request) => request.principal ?? holderOf(context, request),
        onError: (error) => context.events.emit('error', error),
      }),
    }),
  ];
  const admission: SyncStep[] = [
    // Before authentication: a preflight carries no credentials, and a refused call still needs its CORS headers to be readable.
    corsStep(() => context.runtime.corsOrigins),
    authenticationStep(context),
  ];
  const recording = context.cassettes?.recorder;
  const replaying = context.cassetteFolder?.replaying ? context.cassetteFolder : undefined;
  if (!recording && !replaying) app.addHook('onRequest', syncSteps(...arrival, ...admission));
  else {
    app.addHook('onRequest', syncSteps(...arrival));
    // `--record`: relayed (and with --record-simulated, simulated) exchanges become cassettes once they ended whole.
    if (recording) installCassetteTap(app, recording, (error) => context.events.emit('error', error));
    // `--replay`: the run's record names each cassette a call was answered from.
    if (replaying) installReplayNotes(app, replaying);
    app.addHook('onRequest', syncSteps(...admission));
  }
  // Every error answer says whether a retry can help (the SDKs' x-should-retry).
  installRetryHints(app);

  // Before the route: the refusal of a token found but not usable, a request whose client left, then the faults and
  // latency asked for; one hook, waiting only when a latency or a fault is asked for.
  const faults = faultStep(app, context.faults);
  app.addHook('preHandler', (request, reply, done) => {
    // After the body is read; a body that does not parse still gets the refusal (see the error handler).
    if (request.refusal) throw request.refusal;
    if (dropAbandonedStep(request, reply) === reply) return;
    const waiting = faults(request, reply);
    // As for an async hook: Fastify goes on after the wait, and stops there when the fault answered or hijacked the reply.
    if (waiting === undefined) toHandler(request, reply, done);
    else waiting.then(() => toHandler(request, reply, done), done);
  });
  // Last before the handler: an upgrade to a route that serves no socket opens and is closed at once.
  const toHandler = (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    if (isUpgrade(request)) sockets.refuseElsewhere(request, reply);
    done();
  };

  app.setErrorHandler((error: FastifyError | GatewayError, request, reply) => {
    const gatewayError = request.refusal ?? toGatewayError(error);
    // Only unexpected failures are reported; a GatewayError (simulated faults included) is an answer, not a bug.
    if (gatewayError.kind === 'internal' && !(error instanceof GatewayError)) context.events.emit('error', error);
    const { status, body } = renderError(protocolOf(pathOf(request)), gatewayError);
    // A fixture's scripted error may carry headers (Retry-After).
    if (gatewayError.scripted?.headers) reply.headers(gatewayError.scripted.headers);
    if (!reply.hasHeader(RETRY_HINT_HEADER)) reply.header(RETRY_HINT_HEADER, retryHint(status, gatewayError));
    return reply.status(status).send(body);
  });

  app.setNotFoundHandler((request, reply) => {
    const { status, body } = renderError(protocolOf(pathOf(request)), unknownEndpoint(request));
    return reply.status(status).send(body);
  });

  for (const family of routes) await app.register(family, { context });
  await sockets.register(app, setup, async (scope) => {
    for (const family of socketRoutes) await scope.register(family, { context });
  });
  return app;
}

/** The authentication `onRequest` step of every route not marked public (unknown paths are refused here, before their body is read). */
function authenticationStep(context: AppContext): SyncStep {
  return (request) => {
    const upgrade = isUpgrade(request);
    if (upgrade) markUpgraded(request.raw.socket);
    // An unknown path is answered before its body is read: a multipart or binary body to it never meets a parser.
    // Read once: Fastify builds `routeOptions` anew on every read.
    const route = request.routeOptions;
    if (!route.url) throw unknownEndpoint(request);
    if (route.config.public) return;
    try {
      const principal = context.tokens.authenticate(credentialOf(request.headers, request.query));
      request.principal = request.callNotes ? { ...principal, notes: request.callNotes } : principal;
      markAuthenticated(request.raw.socket);
    } catch (error) {
      // Left without a principal, such a route authenticates again once upgraded and reports the refusal as an event.
      if (upgrade && route.config.socketAuth) return;
      // The token was identified: its call is refused after the body is read, so the journal keeps its model and body.
      if (!upgrade && error instanceof GatewayError && error.kind === 'forbidden') {
        request.refusal = error;
        return;
      }
      throw error;
    }
  };
}

/**
 * The account and name of the API token a call carried: an accepted one, or one that was refused (revoked,
 * expired, out of quota), or on unknown paths and public routes where none is asked for.
 * Null when the call named no token of this gateway, as any web page's call does.
 */
function holderOf(context: AppContext, request: FastifyRequest): TokenHolder | null {
  // An accepted token was looked up once already, by authentication.
  const principal = request.principal as Principal | undefined;
  if (principal?.tokenLabel !== undefined && principal.tokenId !== undefined) {
    return { account: principal.accountName, token: principal.tokenLabel, accountId: principal.accountId, tokenId: principal.tokenId };
  }
  try {
    return context.tokens.holderOf(credentialOf(request.headers, request.query));
  } catch {
    return null;
  }
}

/** The 404 of a path no route serves, naming the method and the path as shown (never the query). */
function unknownEndpoint(request: FastifyRequest): GatewayError {
  return new GatewayError('not_found', `Unknown endpoint: ${request.method} ${shownPath(pathOf(request))}`);
}

/** Maps Fastify's own errors (bad JSON, too large, wrong media type) onto gateway error kinds. */
function toGatewayError(error: FastifyError | GatewayError): GatewayError {
  if (error instanceof GatewayError) return error;
  const status = error.statusCode ?? 500;
  if (status === 413) return new GatewayError('payload_too_large', 'Request body is too large');
  if (status >= 400 && status < 500) return new GatewayError('invalid_request', error.message);
  return new GatewayError('internal', 'Internal error in the gateway; see its log');
}
