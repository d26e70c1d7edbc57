import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { createMatrixBot } from '../../../shared/matrix/client';
import { createOutboundClient } from '../../../shared/net/outbound-client';
import type { ApiDeps } from '../../deps';
import { useBotErrors } from './errors';
import { fileRoutes } from './file-routes';
import { FETCH_TIMEOUT_MS } from './files';
import {
  botErrors,
  botErrorSchema,
  idempotencyHeaders,
  deleteMessageBody,
  editMessageBody,
  inviteUserBody,
  inviteUserResult,
  joinRoomBody,
  joinRoomResult,
  membersQuery,
  membersResult,
  roomParams,
  roomsQuery,
  roomsResult,
  sendMessageBody,
  sendMessageResult,
  setReactionBody,
  setReactionResult,
} from './schemas';
import {
  deleteMessage,
  editMessage,
  inviteUser,
  joinRoom,
  listMembers,
  listRooms,
  sendMessage,
  setReaction,
  type BotDeps,
} from './service';

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
  // Files named by URL are fetched through the SSRF-safe client: public addresses only (and the
  // operator's allow-listed hosts), every redirect checked again.
  const fetcher = createOutboundClient({
    allowedHosts: deps.config.webhookAllowedHosts,
    timeoutMs: FETCH_TIMEOUT_MS,
    maxResponseBytes: 64 * 1024,
  });
  root.addHook('onClose', async () => {
    await Promise.all([bot.close(), fetcher.close()]);
  });
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
      useBotErrors(
        plugin,
        [
          'sendMessage',
          'joinRoom',
          'editMessage',
          'deleteMessage',
          'setReaction',
          'inviteUser',
          'sendPhoto',
          'sendDocument',
        ].map((name) => `${PREFIX}/${name}`),
      );
      await plugin.register(async (scope) =>
        fileRoutes(scope, {
          bot,
          logger: deps.logger,
          db: deps.db,
          fetcher,
          allowedHosts: deps.config.webhookAllowedHosts,
        }),
      );

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
        '/editMessage',
        {
          config: { auth: 'bot', upstreamIdempotency: true },
          schema: {
            summary: 'Edit a text message the bot sent',
            description:
              'An `m.replace` edit: clients show the new text (markdown as in sendMessage), ' +
              'clients without edits a `* ` fallback. Only the bot’s own text messages (403 ' +
              '`not_own_message`; the homeserver would store an edit of anybody’s message and ' +
              'clients would ignore it). An `Idempotency-Key` becomes the transaction id.',
            tags,
            headers: idempotencyHeaders,
            body: editMessageBody,
            response: { 200: sendMessageResult, ...otherErrors },
            errors: botErrors(
              'forbidden',
              'not_own_message',
              'event_not_found',
              'rate_limited',
              'send_failed',
            ),
          },
        },
        async (request) =>
          editMessage(depsOf(request), {
            ...request.body,
            idempotencyKey: request.headers['idempotency-key'],
          }),
      );

      app.post(
        '/deleteMessage',
        {
          config: { auth: 'bot', upstreamIdempotency: true },
          schema: {
            summary: 'Delete (redact) a message',
            description:
              'The bot’s own messages always; another user’s only with the `redact` power ' +
              'level in the room (403 `forbidden` otherwise). Answers the redaction’s event id.',
            tags,
            headers: idempotencyHeaders,
            body: deleteMessageBody,
            response: { 200: sendMessageResult, ...otherErrors },
            errors: botErrors('forbidden', 'event_not_found', 'rate_limited', 'send_failed'),
          },
        },
        async (request) =>
          deleteMessage(depsOf(request), {
            ...request.body,
            idempotencyKey: request.headers['idempotency-key'],
          }),
      );

      app.post(
        '/setReaction',
        {
          config: { auth: 'bot', upstreamIdempotency: true },
          schema: {
            summary: 'Set the bot’s reactions on a message (replacing its earlier ones)',
            description:
              'Afterwards the bot has exactly the reactions listed on the event (`[]` clears ' +
              'them): missing ones are sent, others redacted, as the Telegram Bot API does. ' +
              'Other users’ reactions are untouched.',
            tags,
            headers: idempotencyHeaders,
            body: setReactionBody,
            response: { 200: setReactionResult, ...otherErrors },
            errors: botErrors('forbidden', 'event_not_found', 'rate_limited', 'send_failed'),
          },
        },
        async (request) =>
          setReaction(depsOf(request), {
            ...request.body,
            idempotencyKey: request.headers['idempotency-key'],
          }),
      );

      app.post(
        '/inviteUser',
        {
          config: { auth: 'bot' },
          schema: {
            summary: 'Invite a user to a room the bot is in',
            description:
              'The user gets an invite they can accept. 409 `already_member` when they are in ' +
              'the room already; inviting someone already invited answers 200 again.',
            tags,
            body: inviteUserBody,
            response: { 200: inviteUserResult, ...otherErrors },
            errors: botErrors(
              'forbidden',
              'room_not_found',
              'already_member',
              'rate_limited',
              'send_failed',
            ),
          },
        },
        async (request) => inviteUser(depsOf(request), request.body),
      );

      // `/rooms/` as the contract writes it, and `/rooms` as the document lists it.
      app.get(
        '/rooms/',
        {
          config: { auth: 'bot' },
          schema: { hide: true, querystring: roomsQuery },
        },
        async (request) => listRooms(depsOf(request), request.query),
      );
      app.get(
        '/rooms',
        {
          config: { auth: 'bot' },
          schema: {
            summary: 'The rooms the bot is in, with their names and member counts',
            description:
              'Also at `/rooms/`. Paged by the gateway (the homeserver gives the list whole): by ' +
              'room id, ' +
              '`next_cursor` until the last page; no room repeats or is skipped while the ' +
              'bot’s rooms stay the same.',
            tags,
            querystring: roomsQuery,
            response: { 200: roomsResult, ...otherErrors },
            errors: botErrors('rate_limited', 'send_failed'),
          },
        },
        async (request) => listRooms(depsOf(request), request.query),
      );

      app.get(
        '/rooms/:id/members',
        {
          config: { auth: 'bot' },
          schema: {
            summary: 'Members of a room the bot is in (joined, or invited)',
            description:
              'Paged by the gateway by user id, as `GET /rooms/` is. `membership` join ' +
              '(default) or invite. 403 `forbidden` when the bot is not in the room.',
            tags,
            params: roomParams,
            querystring: membersQuery,
            response: { 200: membersResult, ...otherErrors },
            errors: botErrors('forbidden', 'room_not_found', 'rate_limited', 'send_failed'),
          },
        },
        async (request) => listMembers(depsOf(request), request.params.id, request.query),
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
