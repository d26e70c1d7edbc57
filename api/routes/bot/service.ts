import { createHash, randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import {
  MatrixError,
  MatrixRateLimited,
  MatrixUnavailable,
  type MatrixBot,
} from '../../../shared/matrix/client';
import { messageContent } from '../../../shared/matrix/content';
import { BotError } from './errors';

/**
 * The bot gateway (spec "Bot messaging gateway", docs/bot-gateway.md): each request is one
 * client-server call of the bot's own account, its Matrix errors mapped to the gateway's table.
 * The caller is a bot token, not a user: the services take `(deps, input)`, no actor.
 */

export interface BotDeps {
  bot: MatrixBot;
  logger: FastifyBaseLogger;
}

export interface SendMessageInput {
  room_id: string;
  text: string;
  markdown?: boolean;
  reply_to?: string;
  idempotencyKey?: string;
}

/**
 * The Matrix transaction id: from the Idempotency-Key (hashed: any printable key becomes a
 * path-safe id of one length), so every retry and every API instance sends the same
 * transaction and the homeserver answers the first event. Without a key, a fresh one per
 * request; it still makes the gateway's own rate-limit retries safe.
 */
export function transactionIdFor(idempotencyKey: string | undefined): string {
  if (idempotencyKey === undefined) return `gw-${randomUUID()}`;
  return `gw-key-${createHash('sha256').update(idempotencyKey).digest('base64url')}`;
}

export async function sendMessage(deps: BotDeps, input: SendMessageInput) {
  const content = messageContent({
    text: input.text,
    markdown: input.markdown,
    replyTo: input.reply_to,
  });
  try {
    const eventId = await deps.bot.sendMessage(
      input.room_id,
      content,
      transactionIdFor(input.idempotencyKey),
    );
    return { event_id: eventId };
  } catch (error) {
    // Synapse answers M_FORBIDDEN "not in room" for rooms it has never heard of as well;
    // the room directory (which knows every room of the server) tells the two apart.
    if (error instanceof MatrixError && error.errcode === 'M_FORBIDDEN') {
      const exists = await deps.bot.roomExists(input.room_id).catch(() => true);
      if (!exists) throw roomNotFound(input.room_id);
      throw new BotError('forbidden', 'The bot is not in the room. Call joinRoom first.');
    }
    throw upstreamFailure(deps, error, input.room_id);
  }
}

export async function joinRoom(deps: BotDeps, input: { room_id?: string; room_alias?: string }) {
  const target = input.room_id ?? input.room_alias ?? '';
  try {
    return { room_id: await deps.bot.joinRoom(target) };
  } catch (error) {
    if (error instanceof MatrixError && error.errcode === 'M_FORBIDDEN') {
      throw new BotError(
        'forbidden',
        `The bot may not join ${target}: it is not invited and the room is not public.`,
      );
    }
    throw upstreamFailure(deps, error, target);
  }
}

function roomNotFound(room: string): BotError {
  return new BotError('room_not_found', `The homeserver does not know the room ${room}.`);
}

/** Every other upstream outcome, mapped as docs/spec/contract.md §12 says. */
function upstreamFailure(deps: BotDeps, error: unknown, room: string): Error {
  if (error instanceof MatrixRateLimited) {
    const seconds = Math.max(1, Math.ceil(error.retryAfterMs / 1000));
    return new BotError(
      'rate_limited',
      `The homeserver is rate-limiting the bot; retry after ${seconds} s.`,
      { 'retry-after': String(seconds) },
    );
  }
  if (error instanceof MatrixUnavailable) {
    deps.logger.warn({ err: error }, 'bot gateway: homeserver unavailable');
    return new BotError('send_failed', `${capitalise(error.message)}. Retry is safe.`);
  }
  if (!(error instanceof MatrixError)) return error as Error;
  if (error.status === 404 || error.errcode === 'M_NOT_FOUND') return roomNotFound(room);
  if (error.errcode === 'M_UNKNOWN_TOKEN' || error.errcode === 'M_MISSING_TOKEN') {
    // Our configuration is wrong, not the caller's request: an operator must act.
    deps.logger.error(
      { errcode: error.errcode },
      'bot gateway: the homeserver rejected the bot access token (MATRIX_ACCESS_TOKEN)',
    );
    return new BotError('send_failed', 'The homeserver rejected the bot. Retry is safe.');
  }
  if (error.errcode === 'M_TOO_LARGE') {
    return new BotError(
      'invalid_body',
      'text: too large for one Matrix event (the homeserver refused it); send it in parts',
    );
  }
  if (error.status >= 400 && error.status < 500 && error.errcode !== 'M_UNKNOWN') {
    return new BotError('invalid_body', `The homeserver refused the request: ${error.message}`);
  }
  deps.logger.warn(
    { status: error.status, errcode: error.errcode },
    'bot gateway: homeserver failed',
  );
  return new BotError('send_failed', `The homeserver answered ${error.status}. Retry is safe.`);
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
