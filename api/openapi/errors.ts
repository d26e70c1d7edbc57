import { ERROR_DOCS, ERROR_STATUS, type ErrorCode } from '../../shared/errors';

/**
 * The error catalogue of the OpenAPI document: how a route declares the error codes it answers
 * with (`errors('agent_not_found', 'not_owner')` in its schema) and what each code's response
 * says. The per-route transform (`route-docs.ts`) reads these declarations; routes import only
 * this file.
 */

/** The errors of a family of routes: their codes, statuses and body (one component). */
export interface ErrorCatalog<Code extends string = string> {
  /** Component name of the body every error of these routes has. */
  readonly schema: string;
  status(code: Code): number;
  /** When a client gets the code, in one line. */
  description(code: Code): string;
  /** A body as these routes send it, for the examples. */
  example(code: Code): unknown;
  /** The code a platform-wide error (validation, auth, rate limit, crash) has on these routes. */
  fromPlatform(code: ErrorCode): Code;
}

/** What a route's `schema.errors` holds: codes of one catalog. */
export interface DeclaredErrors {
  readonly catalog: ErrorCatalog<string>;
  readonly codes: readonly string[];
}

declare module 'fastify' {
  interface FastifySchema {
    /**
     * The error codes this route answers with beyond the generic ones the OpenAPI plugin adds
     * by itself (validation, authentication, rate limits, idempotency, 500): documentation
     * only, `errors('agent_not_found', 'not_owner')`.
     */
    errors?: DeclaredErrors;
  }
}

/** The main API's errors: `{"error":{"code","message"}}`, codes and statuses of ERROR_STATUS. */
export const API_ERRORS: ErrorCatalog<ErrorCode> = {
  schema: 'ErrorEnvelope',
  status: (code) => ERROR_STATUS[code],
  description: (code) => ERROR_DOCS[code].description,
  example: (code) => ({ error: { code, message: ERROR_DOCS[code].example } }),
  fromPlatform: (code) => code,
};

/** Every catalog in use, by its body's component name (for the catch-all 4XX and 5XX). */
const CATALOGS = new Map<string, ErrorCatalog<string>>([[API_ERRORS.schema, API_ERRORS]]);

/** A declaration helper bound to a catalog (the main API's is `errors`). */
export function errorsOf<Code extends string>(catalog: ErrorCatalog<Code>) {
  CATALOGS.set(catalog.schema, catalog);
  return (...codes: Code[]): DeclaredErrors => ({
    catalog,
    codes,
  });
}

/** `schema.errors` of a main API route: `errors('agent_not_found', 'not_owner')`. */
export const errors = errorsOf(API_ERRORS);

/** The catalog whose error body is the component `schema`, if one is in use. */
export function catalogNamed(schema: string): ErrorCatalog<string> | undefined {
  return CATALOGS.get(schema);
}
