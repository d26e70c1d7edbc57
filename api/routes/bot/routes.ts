import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { createMatrixBot } from '../../../shared/matrix/client';
import type { ApiDeps } from '../../deps';
import { useBotErrors } from './errors';
import {
  botErrors,
  botErrorSchema,
  idempotencyHeaders,
  joinRoomBody,
  joinRoomResult,
  sendMessageBody,
  sendMessageResult,
} from './schemas';
import { joinRoom, sendMessage, type BotDeps } from './service';

const tags = ['bot gateway'];
const PREFIX = '/api/v1';
const otherErrors = { '4xx': botErrorSchema, '5xx': botErrorSchema };

/**
 * `/api/v1`: the bot messaging gateway (docs/bot-gateway.md). An encapsulated plugin, so its
 * error body and not-found answer are its own and nothing of the main API's leaks in.
 */
export const botRoutes: FastifyPluginAsyncZod<{ deps: ApiDeps }> = async (root, { deps }) => {
  const bot = createMatrixBot({
    homeserverUrl: deps.config.matrix.homeserverUrl,
    accessToken: deps.config.matrix.accessToken,
  });
  root.addHook('onClose', async () => bot.close());
  const depsOf = (request: FastifyRequest): BotDeps => ({ bot, logger: request.log });
  if (!deps.config.matrix.homeserverUrl || !deps.config.matrix.accessToken) {
    deps.logger.warn(
      'bot gateway: no Matrix homeserver configured (MATRIX_HOMESERVER_URL, ' +
        'MATRIX_ACCESS_TOKEN); /api/v1 answers 502 send_failed',
    );
  }

  await root.register(
    async (plugin) => {
      const app = plugin.withTypeProvider<ZodTypeProvider>();
      useBotErrors(plugin, [`${PREFIX}/sendMessage`, `${PREFIX}/joinRoom`]);

      app.post(
        '/sendMessage',
        {
          config: { auth: 'bot', upstreamIdempotency: true },
          schema: {
            summary: 'Send a text message to a room as the bot',
            description:
              'The bot must have joined the room (403 `forbidden`: call joinRoom first; 404 ' +
              '`room_not_found` when the homeserver does not know the room). `text` is the plain ' +
              '`body`; with `markdown: true` also sanitised HTML. An `Idempotency-Key` becomes ' +
              'the Matrix transaction id: a retried send returns the same `event_id` and the room ' +
              'gets one message. The homeserver’s rate limit is waited out for up to 10 s, then ' +
              '429 `rate_limited` with `Retry-After`. 502 `send_failed`: the homeserver failed or ' +
              'is unreachable; retry is safe.',
            tags,
            headers: idempotencyHeaders,
            body: sendMessageBody,
            response: { 200: sendMessageResult, ...otherErrors },
            errors: botErrors('forbidden', 'room_not_found', 'rate_limited', 'send_failed'),
          },
        },
        async (request) =>
          sendMessage(depsOf(request), {
            ...request.body,
            idempotencyKey: request.headers['idempotency-key'],
          }),
      );

      app.post(
        '/joinRoom',
        {
          config: { auth: 'bot' },
          schema: {
            summary: 'Make the bot join a room',
            description:
              'By `room_id` when the bot is invited (a direct message or a manual invite), or by ' +
              '`room_alias` for a public room; exactly one of the two. 403 `forbidden`: not ' +
              'invited and not public; 404 `room_not_found`: the room or alias is unknown. ' +
              'Joining a room the bot is already in answers 200 again.',
            tags,
            body: joinRoomBody,
            response: { 200: joinRoomResult, ...otherErrors },
            errors: botErrors('forbidden', 'room_not_found', 'send_failed'),
          },
        },
        async (request) => joinRoom(depsOf(request), request.body),
      );
    },
    { prefix: PREFIX },
  );
};
