import { randomBytes } from 'node:crypto';
import {
  createRoom,
  joinRoom,
  registerMatrixUser,
  roomMessages,
  sendText,
  type MatrixUser,
} from '../helpers/matrix';

/**
 * The run's real Matrix homeserver (Synapse on loopback) and the helpers that act on it: the
 * behaviour the bot gateway will rely on, seen on the server itself rather than assumed.
 */

let alice: MatrixUser;
let bob: MatrixUser;

beforeAll(async () => {
  [alice, bob] = await Promise.all([registerMatrixUser(), registerMatrixUser()]);
});

describe('the test homeserver', () => {
  it('registers users through the shared-secret admin API', () => {
    expect(alice.userId).toMatch(/^@u[0-9a-f]{12}:localhost$/);
    expect(alice.accessToken).not.toBe(bob.accessToken);
  });

  it('delivers a message to another member of a public room joined by its alias', async () => {
    const aliasLocalpart = `room-${randomBytes(4).toString('hex')}`;
    const room = await createRoom(alice, { public: true, aliasLocalpart });
    expect(room.alias).toBe(`#${aliasLocalpart}:localhost`);
    const joined = await joinRoom(bob, room.alias!);
    expect(joined).toEqual({ status: 200, body: { room_id: room.roomId } });
    const sent = await sendText(alice, room.roomId, 'hello from alice', 'txn-1');
    expect(sent.status).toBe(200);
    const seen = await roomMessages(bob, room.roomId);
    expect(seen).toEqual([
      expect.objectContaining({
        event_id: sent.body.event_id,
        sender: alice.userId,
        content: { msgtype: 'm.text', body: 'hello from alice' },
      }),
    ]);
  });

  it('answers the same event id for a repeated transaction id', async () => {
    const room = await createRoom(alice);
    const first = await sendText(alice, room.roomId, 'once', 'txn-repeat');
    const again = await sendText(alice, room.roomId, 'once', 'txn-repeat');
    expect(again).toEqual(first);
    expect(await roomMessages(alice, room.roomId)).toHaveLength(1);
  });

  it('keeps uninvited users out of a private room and lets invited ones in', async () => {
    const closed = await createRoom(alice);
    const refused = await joinRoom(bob, closed.roomId);
    expect({ status: refused.status, errcode: refused.body.errcode }).toEqual({
      status: 403,
      errcode: 'M_FORBIDDEN',
    });
    expect((await sendText(bob, closed.roomId, 'hi', 'txn-x')).body.errcode).toBe('M_FORBIDDEN');
    const invited = await createRoom(alice, { invite: [bob.userId], direct: true });
    expect((await joinRoom(bob, invited.roomId)).status).toBe(200);
  });
});
