import { randomBytes } from 'node:crypto';
import { registerSynapseUser } from '../../scripts/synapse';
import { readTestServices } from './services';

/**
 * Acting on the run's real Synapse (scripts/synapse.ts) through its own APIs: users are
 * registered with the shared-secret admin API, and each then uses the client-server API with
 * its access token, as a Matrix client would.
 */

export interface MatrixUser {
  userId: string;
  accessToken: string;
}

function homeserver() {
  const { synapse } = readTestServices();
  return synapse;
}

async function call<T>(
  method: string,
  path: string,
  options: { token?: string; body?: unknown } = {},
): Promise<{ status: number; body: T }> {
  const response = await fetch(`${homeserver().url}${path}`, {
    method,
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  return { status: response.status, body: (await response.json()) as T };
}

async function ok<T>(method: string, path: string, options: { token?: string; body?: unknown }) {
  const { status, body } = await call<T>(method, path, options);
  if (status !== 200) throw new Error(`${method} ${path}: ${status} ${JSON.stringify(body)}`);
  return body;
}

/** A new user (a random localpart), registered through `/_synapse/admin/v1/register`. */
export function registerMatrixUser(
  localpart = `u${randomBytes(6).toString('hex')}`,
  admin = false,
): Promise<MatrixUser> {
  return registerSynapseUser(homeserver(), localpart, { admin });
}

/** Creates a room: `public` with an alias, or private (invite only), inviting `invite`. */
export async function createRoom(
  owner: MatrixUser,
  options: { public?: boolean; aliasLocalpart?: string; invite?: string[]; direct?: boolean } = {},
): Promise<{ roomId: string; alias: string | null }> {
  const { room_id } = await ok<{ room_id: string }>('POST', '/_matrix/client/v3/createRoom', {
    token: owner.accessToken,
    body: {
      preset: options.public ? 'public_chat' : 'private_chat',
      visibility: options.public ? 'public' : 'private',
      ...(options.aliasLocalpart ? { room_alias_name: options.aliasLocalpart } : {}),
      invite: options.invite ?? [],
      is_direct: options.direct ?? false,
    },
  });
  const alias = options.aliasLocalpart
    ? `#${options.aliasLocalpart}:${homeserver().serverName}`
    : null;
  return { roomId: room_id, alias };
}

/** Joins a room by id or alias; the homeserver's status and body as they are. */
export function joinRoom(user: MatrixUser, roomIdOrAlias: string) {
  return call<{ room_id?: string; errcode?: string }>(
    'POST',
    `/_matrix/client/v3/join/${encodeURIComponent(roomIdOrAlias)}`,
    { token: user.accessToken, body: {} },
  );
}

/** Sends `m.text` with the transaction id `txnId`; the homeserver's answer as it is. */
export function sendText(user: MatrixUser, roomId: string, text: string, txnId: string) {
  return call<{ event_id?: string; errcode?: string }>(
    'PUT',
    `/_matrix/client/v3/rooms/${encodeURIComponent(roomId)}/send/m.room.message/${encodeURIComponent(txnId)}`,
    { token: user.accessToken, body: { msgtype: 'm.text', body: text } },
  );
}

export interface RoomMessage {
  event_id: string;
  sender: string;
  type: string;
  content: Record<string, unknown>;
}

/** The room's latest messages as `user` sees them, oldest first. */
export async function roomMessages(user: MatrixUser, roomId: string): Promise<RoomMessage[]> {
  const { chunk } = await ok<{ chunk: RoomMessage[] }>(
    'GET',
    `/_matrix/client/v3/rooms/${encodeURIComponent(roomId)}/messages?dir=b&limit=50`,
    { token: user.accessToken },
  );
  return chunk.filter((event) => event.type === 'm.room.message').reverse();
}

/** An OpenID token of `user` (`POST /user/{userId}/openid/request_token`), as a client gets one. */
export async function openIdToken(
  user: MatrixUser,
): Promise<{ access_token: string; matrix_server_name: string }> {
  return ok<{ access_token: string; matrix_server_name: string }>(
    'POST',
    `/_matrix/client/v3/user/${encodeURIComponent(user.userId)}/openid/request_token`,
    { token: user.accessToken, body: {} },
  );
}

/** One event of the room as `user` sees it (a redacted one has empty content). */
export async function roomEvent(user: MatrixUser, roomId: string, eventId: string) {
  return ok<RoomMessage & { unsigned?: Record<string, unknown> }>(
    'GET',
    `/_matrix/client/v3/rooms/${encodeURIComponent(roomId)}/event/${encodeURIComponent(eventId)}`,
    { token: user.accessToken },
  );
}

/** The reactions to an event, as the relations API gives them to `user`. */
export async function reactionsTo(
  user: MatrixUser,
  roomId: string,
  eventId: string,
): Promise<RoomMessage[]> {
  const { chunk } = await ok<{ chunk: RoomMessage[] }>(
    'GET',
    `/_matrix/client/v1/rooms/${encodeURIComponent(roomId)}/relations/${encodeURIComponent(eventId)}/m.annotation/m.reaction?limit=100`,
    { token: user.accessToken },
  );
  return chunk;
}

/** `user` reacts to an event with `key` (an `m.reaction` annotation). */
export function sendReaction(user: MatrixUser, roomId: string, eventId: string, key: string) {
  return ok<{ event_id: string }>(
    'PUT',
    `/_matrix/client/v3/rooms/${encodeURIComponent(roomId)}/send/m.reaction/r-${randomBytes(6).toString('hex')}`,
    {
      token: user.accessToken,
      body: { 'm.relates_to': { rel_type: 'm.annotation', event_id: eventId, key } },
    },
  );
}
