import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_STATUS } from '../../../shared/errors';
import { renderError } from '../../plugins/errors';

/**
 * The gateway's own error body, `{"error":"<code>","detail":"..."}` (spec "Bot gateway
 * errors"), for every failure of an `/api/v1` route: its own refusals and the generic ones
 * (auth, validation, rate limits, crashes) translated from the main API's codes.
 */

export type BotErrorCode =
  | 'invalid_body'
  | 'unauthorized'
  | 'forbidden'
  | 'not_own_message'
  | 'room_not_found'
  | 'event_not_found'
  | 'already_member'
  | 'media_not_found'
  | 'file_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'send_failed'
  | 'fetch_failed';

export const BOT_STATUS: Record<BotErrorCode, number> = {
  invalid_body: 400,
  unauthorized: 401,
  forbidden: 403,
  not_own_message: 403,
  room_not_found: 404,
  event_not_found: 404,
  already_member: 409,
  media_not_found: 400,
  file_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  send_failed: 502,
  fetch_failed: 502,
};

export class BotError extends Error {
  readonly status: number;

  constructor(
    readonly code: BotErrorCode,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = 'BotError';
    this.status = BOT_STATUS[code];
  }
}

interface BotErrorReply {
  status: number;
  body: { error: string; detail?: string };
  headers: Record<string, string>;
}

function botErrorOf(error: Error): BotErrorReply {
  if (error instanceof BotError) {
    return {
      status: error.status,
      body: { error: error.code, detail: error.detail },
      headers: error.headers,
    };
  }
  const rendered = renderError(error);
  const status = ERROR_STATUS[rendered.code];
  const headers = rendered.headers ?? {};
  // decisions: a missing or wrong token is exactly {"error":"unauthorized"}.
  if (status === 401) return { status, body: { error: 'unauthorized' }, headers: {} };
  if (status === 400) {
    return { status, body: { error: 'invalid_body', detail: rendered.message }, headers };
  }
  if (status >= 500) {
    return {
      status,
      body: { error: rendered.code, detail: 'Internal error; retry shortly' },
      headers,
    };
  }
  return { status, body: { error: rendered.code, detail: rendered.message }, headers };
}

/** Installs the gateway's error and not-found handlers on its (encapsulated) plugin. */
export function useBotErrors(app: FastifyInstance, knownPaths: readonly string[]): void {
  app.setErrorHandler(async (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const rendered = botErrorOf(error);
    if (rendered.status >= 500 && !(error instanceof BotError)) {
      request.log.error({ err: error }, 'bot gateway request failed');
    } else {
      request.log.warn({ code: rendered.body.error }, rendered.body.detail ?? rendered.body.error);
    }
    reply.header('x-request-id', request.id);
    for (const [name, value] of Object.entries(rendered.headers)) reply.header(name, value);
    return reply.status(rendered.status).send(rendered.body);
  });
  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    reply.header('x-request-id', request.id);
    if (knownPaths.includes(path)) {
      return reply
        .status(405)
        .header('allow', 'POST')
        .send({ error: 'method_not_allowed', detail: `method: use POST on ${path}` });
    }
    return reply.status(404).send({
      error: 'not_found',
      detail: `route: ${request.method} ${path.slice(0, 200)} does not exist`,
    });
  });
}
