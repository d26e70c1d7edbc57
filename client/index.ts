import createClient, { type Client, type ClientOptions, type Middleware } from 'openapi-fetch';
import type { components, paths } from './schema';

/**
 * A typed client of the platform API: openapi-fetch over the `paths` that openapi-typescript
 * generates from the OpenAPI document (`schema.d.ts`, written by `npm run client:generate`).
 * Every path, parameter, body and response (the error envelope of 4XX/5XX included) is typed.
 *
 * ```ts
 * const api = createPlatformClient({ baseUrl: 'http://localhost:3000', apiKey: 'svc_live_…' });
 * const { data, error, response } = await api.GET('/me/api-keys/{id}/usage', {
 *   params: { path: { id }, query: { since: 'day' } },
 * });
 * if (error) throw new Error(`${response.status} ${error.error.code}: ${error.error.message}`);
 * ```
 *
 * Each call resolves to `{ data }` on a 2xx (`data` undefined on a 204) or `{ error }` on
 * any other status, with the raw `response` beside; it rejects only when the network fails.
 */

export type { components, operations, paths } from './schema';

/** Named schemas of the document, e.g. `Schemas['ApiKey']`. */
export type Schemas = components['schemas'];
/** The body of every error response: `{"error":{"code","message"}}`. */
export type ErrorEnvelope = components['schemas']['ErrorEnvelope'];
export type PlatformClient = Client<paths>;

export interface PlatformClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** Where the API is, e.g. `https://api.example` (no trailing path needed). */
  baseUrl: string;
  /** An API key (`svc_live_…`), sent as `x-api-key` on every request. */
  apiKey?: string;
  /**
   * A session: the `svc_session` cookie's value, or a whole `svc_session=…` pair, sent as the
   * `Cookie` header (server-side callers; a browser sends its cookie itself with
   * `credentials: 'include'`).
   */
  sessionCookie?: string;
  /** A fetch to use instead of `globalThis.fetch` (tests, retries, tracing). */
  fetch?: (request: Request) => Promise<Response>;
}

/**
 * Adds the credentials to every request. A header the call sets itself (`headers` in its
 * options) wins, so one client can make a single call with another key.
 */
export function credentialsMiddleware(credentials: {
  apiKey?: string;
  sessionCookie?: string;
}): Middleware {
  const cookie =
    credentials.sessionCookie === undefined
      ? undefined
      : credentials.sessionCookie.includes('=')
        ? credentials.sessionCookie
        : `svc_session=${credentials.sessionCookie}`;
  return {
    onRequest({ request }) {
      if (credentials.apiKey !== undefined && !request.headers.has('x-api-key')) {
        request.headers.set('x-api-key', credentials.apiKey);
      }
      if (cookie !== undefined && !request.headers.has('cookie')) {
        request.headers.set('cookie', cookie);
      }
      return request;
    },
  };
}

export function createPlatformClient(options: PlatformClientOptions): PlatformClient {
  const { apiKey, sessionCookie, ...clientOptions } = options;
  const client = createClient<paths>(clientOptions);
  if (apiKey !== undefined || sessionCookie !== undefined) {
    client.use(credentialsMiddleware({ apiKey, sessionCookie }));
  }
  return client;
}
