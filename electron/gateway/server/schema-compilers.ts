// Fastify's schema compilers (ajv and fast-json-stringify), loaded the first time a route declares a schema instead of at every start.
import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
/** A compiler factory as Fastify calls it: (the schemas added with addSchema, the server's ajv or serializer options). */
type Factory = (externalSchemas: unknown, options: unknown) => unknown;

/** Loads `name` from Fastify's own folder: the compilers are its dependencies, not the gateway's. */
function requireFromFastify(name: string): unknown {
  return createRequire(createRequire(import.meta.url).resolve('fastify'))(name);
}

/** Builds the factory of `name` (a selector, as Fastify's default builds it) on its first call only. */
function loadedOnFirstCall(name: string): Factory {
  let factory: Factory | undefined;
  return (externalSchemas, options) => {
    factory ??= (requireFromFastify(name) as () => Factory)();
    return factory(externalSchemas, options);
  };
}

/**
 * The compilers Fastify builds by default (about a fifth of the gateway's start-up to load), each loaded on the first
 * schema it must compile. No route of the gateway declares a schema today, so neither loads.
 */
export const lazySchemaCompilers = {
  buildValidator: loadedOnFirstCall('@fastify/ajv-compiler'),
  buildSerializer: loadedOnFirstCall('@fastify/fast-json-stringify-compiler'),
} as CompilersFactory;
