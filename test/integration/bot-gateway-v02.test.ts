import { randomBytes } from 'node:crypto';
import type { App } from '../../api/app';
import { UNLIMITED_RATES, useTestApp } from '../helpers/context';
import { expectBotError } from '../helpers/errors';
import {
  createRoom,
  joinRoom,
  reactionsTo,
  registerMatrixUser,
  roomEvent,
  roomMessages,
  sendReaction,
  sendText,
  type MatrixUser,
} from '../helpers/matrix';
import { readTestServices } from '../helpers/services';

/**
 * Bot gateway v0.2 (docs/spec/contract.md §17): edits, deletions, reactions and invites on the
 * run's real Synapse, read back as another Matrix user through the client-server API.
 */

const BOT_TOKEN = 'bot-token-v02-0123456789abcdef';

let bot: MatrixUser;
let alice: MatrixUser;
let bob: MatrixUser;

beforeAll(async () => {
  [bot, alice, bob] = await Promise.all([
    registerMatrixUser(),
    registerMatrixUser(),
    registerMatrixUser(),
  ]);
});
const test = useTestApp({
  env: () => ({
    ...UNLIMITED_RATES,
    BOT_TOKENS: BOT_TOKEN,
    MATRIX_HOMESERVER_URL: readTestServices().synapse.url,
    MATRIX_ACCESS_TOKEN: bot.accessToken,
  }),
});

function post(path: string, payload: unknown, headers: Record<string, string> = {}, app?: App) {
  return (app ?? test.app).inject({
    method: 'POST',
    url: `/api/v1/${path}`,
    headers: { 'x-service-bot-token': BOT_TOKEN, ...headers },
    payload: payload as object,
  });
}

/** A public room of alice's that the bot has joined, and a message of the bot in it. */
async function roomWithMessage(
  text = 'Build started',
): Promise<{ roomId: string; eventId: string }> {
  const room = await createRoom(alice, {
    public: true,
    aliasLocalpart: `v02-${randomBytes(5).toString('hex')}`,
  });
  expect((await post('joinRoom', { room_alias: room.alias })).statusCode).toBe(200);
  const sent = await post('sendMessage', { room_id: room.roomId, text });
  expect(sent.statusCode).toBe(200);
  return { roomId: room.roomId, eventId: sent.json<{ event_id: string }>().event_id };
}

describe('POST /api/v1/editMessage', () => {
  it('edits the bot’s message as m.replace with the * fallback and the new content', async () => {
    const { roomId, eventId } = await roomWithMessage();
    const edited = await post(
      'editMessage',
      { room_id: roomId, event_id: eventId, text: 'Build **finished**', markdown: true },
      { 'idempotency-key': 'edit-1' },
    );
    expect(edited.statusCode).toBe(200);
    const editId = edited.json<{ event_id: string }>().event_id;
    // The same key again: the same edit, not a second one.
    const again = await post(
      'editMessage',
      { room_id: roomId, event_id: eventId, text: 'Build **finished**', markdown: true },
      { 'idempotency-key': 'edit-1' },
    );
    expect(again.json()).toEqual({ event_id: editId });
    const edits = (await roomMessages(alice, roomId)).filter(
      (message) =>
        (message.content['m.relates_to'] as { rel_type?: string })?.rel_type === 'm.replace',
    );
    expect(edits).toEqual([
      expect.objectContaining({
        event_id: editId,
        sender: bot.userId,
        content: {
          msgtype: 'm.text',
          body: '* Build **finished**',
          format: 'org.matrix.custom.html',
          formatted_body: '* <p>Build <strong>finished</strong></p>',
          'm.new_content': {
            msgtype: 'm.text',
            body: 'Build **finished**',
            format: 'org.matrix.custom.html',
            formatted_body: '<p>Build <strong>finished</strong></p>',
          },
          'm.relates_to': { rel_type: 'm.replace', event_id: eventId },
        },
      }),
    ]);
  });

  it('refuses another user’s message with 403 not_own_message and sends nothing', async () => {
    const { roomId } = await roomWithMessage();
    const hers = await sendText(
      alice,
      roomId,
      'Alice speaking',
      `t-${randomBytes(4).toString('hex')}`,
    );
    const before = (await roomMessages(alice, roomId)).length;
    expectBotError(
      await post('editMessage', { room_id: roomId, event_id: hers.body.event_id, text: 'pwned' }),
      403,
      'not_own_message',
      `The event ${hers.body.event_id} is not a text message of the bot; it can edit only its own.`,
    );
    expect((await roomMessages(alice, roomId)).length).toBe(before);
    expectBotError(
      await post('editMessage', { room_id: roomId, event_id: '$nosuchevent', text: 'x' }),
      404,
      'event_not_found',
      `The room ${roomId} has no event $nosuchevent the bot can see.`,
    );
  });
});

describe('POST /api/v1/deleteMessage', () => {
  it('redacts the message, with its reason', async () => {
    const { roomId, eventId } = await roomWithMessage('to be deleted');
    const deleted = await post('deleteMessage', {
      room_id: roomId,
      event_id: eventId,
      reason: 'Sent by mistake',
    });
    expect(deleted.statusCode).toBe(200);
    const redaction = deleted.json<{ event_id: string }>().event_id;
    const seen = await roomEvent(alice, roomId, eventId);
    expect(seen.content).toEqual({});
    expect(seen.unsigned?.redacted_because).toMatchObject({
      event_id: redaction,
      sender: bot.userId,
      content: expect.objectContaining({ reason: 'Sent by mistake' }),
    });
  });
});

describe('POST /api/v1/setReaction', () => {
  it('replaces the bot’s reactions: two keys, then one, then none; others’ reactions stay', async () => {
    const { roomId, eventId } = await roomWithMessage('React to me');
    await sendReaction(alice, roomId, eventId, '👍');
    const hers = async () =>
      (await reactionsTo(alice, roomId, eventId)).filter((event) => event.sender === alice.userId);
    const mine = async () =>
      (await reactionsTo(alice, roomId, eventId))
        .filter((event) => event.sender === bot.userId)
        .map((event) => (event.content['m.relates_to'] as { key: string }).key)
        .sort();

    const two = await post('setReaction', {
      room_id: roomId,
      event_id: eventId,
      reaction: ['👍', '🎉'],
    });
    expect(two.json<{ reactions: { key: string }[] }>().reactions.map((r) => r.key)).toEqual([
      '👍',
      '🎉',
    ]);
    expect(await mine()).toEqual(['🎉', '👍'].sort());

    const one = await post('setReaction', { room_id: roomId, event_id: eventId, reaction: ['🎉'] });
    expect(one.json<{ reactions: { key: string; event_id: string }[] }>().reactions).toEqual([
      two.json<{ reactions: { key: string; event_id: string }[] }>().reactions[1],
    ]);
    expect(await mine()).toEqual(['🎉']);

    const none = await post('setReaction', { room_id: roomId, event_id: eventId, reaction: [] });
    expect(none.json()).toEqual({ reactions: [] });
    expect(await mine()).toEqual([]);
    // Alice's own 👍 was never the bot's to take back.
    expect(await hers()).toHaveLength(1);
  });
});

describe('POST /api/v1/inviteUser', () => {
  it('invites a user who can accept; a second invite once joined is 409 already_member', async () => {
    // A private room (members may invite) that alice invited the bot to.
    const { roomId } = await createRoom(alice, { invite: [bot.userId] });
    expect((await post('joinRoom', { room_id: roomId })).statusCode).toBe(200);
    const invited = await post('inviteUser', { room_id: roomId, user_id: bob.userId });
    expect({ status: invited.statusCode, body: invited.json() }).toEqual({
      status: 200,
      body: { invited: true },
    });
    expect((await joinRoom(bob, roomId)).status).toBe(200);
    expectBotError(
      await post('inviteUser', { room_id: roomId, user_id: bob.userId }),
      409,
      'already_member',
      `${bob.userId} is already in the room ${roomId}.`,
    );
    // Where the bot lacks the invite power (a public room: 50 to invite), the homeserver's word.
    const { roomId: publicRoom } = await roomWithMessage();
    expectBotError(
      await post('inviteUser', { room_id: publicRoom, user_id: bob.userId }),
      403,
      'forbidden',
      /^The bot may not invite to /,
    );
    expectBotError(
      await post('inviteUser', { room_id: roomId, user_id: 'bob' }),
      400,
      'invalid_body',
      /^user_id: must be a Matrix user id/,
    );
  });
});

describe('GET /api/v1/rooms/ and /rooms/:id/members', () => {
  const get = (url: string) =>
    test.app.inject({ method: 'GET', url, headers: { 'x-service-bot-token': BOT_TOKEN } });

  /** Every page of a list, following next_cursor. */
  async function walk<T>(url: string, limit: number): Promise<{ items: T[]; pages: number }> {
    const items: T[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const separator = url.includes('?') ? '&' : '?';
      const page = await get(
        `${url}${separator}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(page.statusCode).toBe(200);
      const body = page.json<{ items: T[]; next_cursor: string | null }>();
      items.push(...body.items);
      cursor = body.next_cursor;
      pages += 1;
    } while (cursor && pages < 100);
    return { items, pages };
  }

  it('pages the bot’s rooms and a room’s members without repeats or gaps', async () => {
    const created: string[] = [];
    for (let index = 0; index < 3; index++) {
      const { roomId } = await roomWithMessage(`room ${index}`);
      created.push(roomId);
    }
    const rooms = await walk<{ room_id: string; joined_members: number }>('/api/v1/rooms/', 2);
    // The same list without the trailing slash.
    const unslashed = await walk<{ room_id: string }>('/api/v1/rooms', 100);
    expect(unslashed.items.map((room) => room.room_id)).toEqual(
      rooms.items.map((room) => room.room_id),
    );
    const ids = rooms.items.map((room) => room.room_id);
    expect(rooms.pages).toBeGreaterThan(1);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([...ids].sort());
    expect(ids).toEqual(expect.arrayContaining(created));
    expect(rooms.items.find((room) => room.room_id === created[0])).toMatchObject({
      joined_members: 2,
    });

    // Five members: alice, the bot and three more who join.
    const roomId = created[0]!;
    const extra = await Promise.all([0, 1, 2].map(() => registerMatrixUser()));
    for (const user of extra) expect((await joinRoom(user, roomId)).status).toBe(200);
    const members = await walk<{ user_id: string; membership: string }>(
      `/api/v1/rooms/${encodeURIComponent(roomId)}/members`,
      2,
    );
    expect(members.pages).toBe(3);
    expect(members.items.map((member) => member.user_id)).toEqual(
      [alice.userId, bot.userId, ...extra.map((user) => user.userId)].sort(),
    );
    expect(members.items.every((member) => member.membership === 'join')).toBe(true);

    expectBotError(
      await get(`/api/v1/rooms/${encodeURIComponent(roomId)}/members?cursor=not%2Fa%2Fcursor`),
      400,
      'invalid_body',
      'cursor: must be the next_cursor of an earlier page',
    );
  });

  it('refuses the members of a room the bot is not in with 403 forbidden', async () => {
    const { roomId } = await createRoom(alice, {});
    expectBotError(
      await get(`/api/v1/rooms/${encodeURIComponent(roomId)}/members`),
      403,
      'forbidden',
      'The bot is not in the room. Call joinRoom first.',
    );
  });
});
