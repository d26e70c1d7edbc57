import { createHash, randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import {
  MatrixError,
  MatrixRateLimited,
  MatrixUnavailable,
  type MatrixBot,
} from '../../../shared/matrix/client';
import { editContent, messageContent } from '../../../shared/matrix/content';
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

/** A failure reading or writing an event: a missing event is 404 `event_not_found`. */
function eventFailure(deps: BotDeps, error: unknown, room: string, eventId: string): Error {
  if (error instanceof MatrixError && (error.errcode === 'M_NOT_FOUND' || error.status === 404)) {
    return new BotError(
      'event_not_found',
      `The room ${room} has no event ${eventId} the bot can see.`,
    );
  }
  if (error instanceof MatrixError && error.errcode === 'M_FORBIDDEN') {
    return new BotError('forbidden', `The bot may not do this in ${room}: ${error.message}`);
  }
  return upstreamFailure(deps, error, room);
}

const TEXT_MESSAGE_TYPES = new Set(['m.text', 'm.notice']);

/**
 * `editMessage`: an `m.replace` of one of the bot's own text messages. Synapse stores an edit
 * of anybody's message and clients then ignore it, so the sender is checked here first.
 */
export async function editMessage(
  deps: BotDeps,
  input: {
    room_id: string;
    event_id: string;
    text: string;
    markdown?: boolean;
    idempotencyKey?: string;
  },
) {
  let original;
  try {
    original = await deps.bot.getEvent(input.room_id, input.event_id);
  } catch (error) {
    throw eventFailure(deps, error, input.room_id, input.event_id);
  }
  const bot = await deps.bot.whoAmI().catch((error: unknown) => {
    throw upstreamFailure(deps, error, input.room_id);
  });
  const msgtype = original.content.msgtype;
  if (
    original.sender !== bot ||
    original.type !== 'm.room.message' ||
    typeof msgtype !== 'string' ||
    !TEXT_MESSAGE_TYPES.has(msgtype)
  ) {
    throw new BotError(
      'not_own_message',
      `The event ${input.event_id} is not a text message of the bot; it can edit only its own.`,
    );
  }
  try {
    const eventId = await deps.bot.sendEvent(
      input.room_id,
      'm.room.message',
      editContent(input.event_id, { text: input.text, markdown: input.markdown }),
      transactionIdFor(input.idempotencyKey),
    );
    return { event_id: eventId };
  } catch (error) {
    throw eventFailure(deps, error, input.room_id, input.event_id);
  }
}

/** `deleteMessage`: a redaction; another user's message needs the bot's `redact` power. */
export async function deleteMessage(
  deps: BotDeps,
  input: { room_id: string; event_id: string; reason?: string; idempotencyKey?: string },
) {
  try {
    const eventId = await deps.bot.redact(
      input.room_id,
      input.event_id,
      transactionIdFor(input.idempotencyKey),
      input.reason,
    );
    return { event_id: eventId };
  } catch (error) {
    throw eventFailure(deps, error, input.room_id, input.event_id);
  }
}

/**
 * `setReaction`: the bot's reactions on the event become exactly `reaction` (Telegram's
 * semantics over `m.annotation`): missing keys are sent, others redacted. Each reaction's
 * transaction id derives from the key (and the Idempotency-Key), so a retry sends nothing twice;
 * `M_DUPLICATE_ANNOTATION` (the reaction is there already) counts as done.
 */
export async function setReaction(
  deps: BotDeps,
  input: { room_id: string; event_id: string; reaction: string[]; idempotencyKey?: string },
) {
  const room = input.room_id;
  const wanted = [...new Set(input.reaction)];
  try {
    await deps.bot.getEvent(room, input.event_id);
  } catch (error) {
    throw eventFailure(deps, error, room, input.event_id);
  }
  try {
    const bot = await deps.bot.whoAmI();
    const mine = (await deps.bot.reactionsTo(room, input.event_id)).filter(
      (event) => event.sender === bot,
    );
    const keyOf = (event: { content: Record<string, unknown> }) =>
      (event.content['m.relates_to'] as { key?: unknown } | undefined)?.key;
    const kept: { key: string; event_id: string }[] = [];
    for (const event of mine) {
      const key = keyOf(event);
      if (typeof key === 'string' && wanted.includes(key)) {
        kept.push({ key, event_id: event.event_id });
        continue;
      }
      await deps.bot.redact(
        room,
        event.event_id,
        txn(input.idempotencyKey, `unreact:${event.event_id}`),
      );
    }
    const reactions: { key: string; event_id: string }[] = [];
    for (const key of wanted) {
      const existing = kept.find((entry) => entry.key === key);
      if (existing) {
        reactions.push(existing);
        continue;
      }
      const eventId = await deps.bot
        .sendEvent(
          room,
          'm.reaction',
          { 'm.relates_to': { rel_type: 'm.annotation', event_id: input.event_id, key } },
          txn(input.idempotencyKey, `react:${input.event_id}:${key}`),
        )
        .catch(async (error: unknown) => {
          // The reaction is there already (another request set it meanwhile): done.
          if (!(error instanceof MatrixError) || error.errcode !== 'M_DUPLICATE_ANNOTATION') {
            throw error;
          }
          const now = await deps.bot.reactionsTo(room, input.event_id);
          const found = now.find((event) => event.sender === bot && keyOf(event) === key);
          if (!found) throw error;
          return found.event_id;
        });
      reactions.push({ key, event_id: eventId });
    }
    return { reactions };
  } catch (error) {
    throw eventFailure(deps, error, room, input.event_id);
  }
}

/** A transaction id per part of a request: the same request and part, the same id. */
function txn(idempotencyKey: string | undefined, part: string): string {
  return transactionIdFor(idempotencyKey === undefined ? undefined : `${idempotencyKey}\n${part}`);
}

/** `inviteUser`: 409 `already_member` for somebody in the room already. */
export async function inviteUser(deps: BotDeps, input: { room_id: string; user_id: string }) {
  try {
    if ((await deps.bot.membership(input.room_id, input.user_id)) === 'join') {
      throw new BotError(
        'already_member',
        `${input.user_id} is already in the room ${input.room_id}.`,
      );
    }
    await deps.bot.invite(input.room_id, input.user_id);
    return { invited: true as const };
  } catch (error) {
    if (error instanceof BotError) throw error;
    if (error instanceof MatrixError && error.errcode === 'M_FORBIDDEN') {
      if (/already in the room/i.test(error.message)) {
        throw new BotError(
          'already_member',
          `${input.user_id} is already in the room ${input.room_id}.`,
        );
      }
      const exists = await deps.bot.roomExists(input.room_id).catch(() => true);
      if (!exists) throw roomNotFound(input.room_id);
      throw new BotError(
        'forbidden',
        `The bot may not invite to ${input.room_id}: ${error.message}`,
      );
    }
    throw upstreamFailure(deps, error, input.room_id);
  }
}

/**
 * A page of a list the homeserver gives whole (joined rooms, members): sorted here by a key,
 * the cursor the last key of the page (base64url), so pages neither repeat nor skip while the
 * list stays the same, and an item added or gone between pages moves nothing else.
 */
function pageOf<T>(
  items: T[],
  keyOf: (item: T) => string,
  query: { limit: number; cursor?: string },
): { page: T[]; next_cursor: string | null } {
  let after: string | null = null;
  if (query.cursor !== undefined) {
    after = Buffer.from(query.cursor, 'base64url').toString('utf8');
    if (!after || Buffer.from(after, 'utf8').toString('base64url') !== query.cursor) {
      throw new BotError('invalid_body', 'cursor: must be the next_cursor of an earlier page');
    }
  }
  const sorted = [...items].sort((a, b) =>
    keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0,
  );
  const rest = after === null ? sorted : sorted.filter((item) => keyOf(item) > after);
  const page = rest.slice(0, query.limit);
  const last = page.at(-1);
  return {
    page,
    next_cursor:
      rest.length > page.length && last
        ? Buffer.from(keyOf(last), 'utf8').toString('base64url')
        : null,
  };
}

/** `GET /rooms/`: the rooms the bot has joined, by room id, with name and member count. */
export async function listRooms(deps: BotDeps, query: { limit: number; cursor?: string }) {
  try {
    const { page, next_cursor } = pageOf(await deps.bot.joinedRooms(), (id) => id, query);
    const items = await Promise.all(
      page.map(async (roomId) => {
        const summary = await deps.bot.roomSummary(roomId);
        return { room_id: roomId, name: summary.name, joined_members: summary.joinedMembers };
      }),
    );
    return { items, next_cursor };
  } catch (error) {
    if (error instanceof BotError) throw error;
    throw upstreamFailure(deps, error, 'the bot’s rooms');
  }
}

/** `GET /rooms/:id/members`: joined (or invited) members by user id. */
export async function listMembers(
  deps: BotDeps,
  roomId: string,
  query: { limit: number; cursor?: string; membership: 'join' | 'invite' },
) {
  try {
    const members = (await deps.bot.members(roomId, query.membership)).filter(
      (event) => typeof event.state_key === 'string',
    );
    const userOf = (event: (typeof members)[number]) => event.state_key ?? '';
    const { page, next_cursor } = pageOf(members, userOf, query);
    return {
      items: page.map((event) => ({
        user_id: userOf(event),
        display_name:
          typeof event.content.displayname === 'string' ? event.content.displayname : null,
        membership: query.membership,
      })),
      next_cursor,
    };
  } catch (error) {
    if (error instanceof BotError) throw error;
    if (error instanceof MatrixError && error.errcode === 'M_FORBIDDEN') {
      const exists = await deps.bot.roomExists(roomId).catch(() => true);
      if (!exists) throw roomNotFound(roomId);
      throw new BotError('forbidden', 'The bot is not in the room. Call joinRoom first.');
    }
    throw upstreamFailure(deps, error, roomId);
  }
}

export function roomNotFound(room: string): BotError {
  return new BotError('room_not_found', `The homeserver does not know the room ${room}.`);
}

/** Every other upstream outcome, mapped as docs/spec/contract.md §12 says. */
export function upstreamFailure(deps: BotDeps, error: unknown, room: string): Error {
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
