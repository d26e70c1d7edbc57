import { setTimeout as sleep } from 'node:timers/promises';
import { createOutboundClient, OutboundError, type OutboundClient } from '../net/outbound-client';

/**
 * The bot's Matrix client-server API calls, and nothing else: the homeserver is the configured
 * one (MATRIX_HOMESERVER_URL), every path is one of the templates below with each caller-given
 * part percent-encoded as a single segment, so nothing a request carries can choose another
 * host or another endpoint (docs/bot-gateway.md).
 */

export const MATRIX_TIMEOUT_MS = 10_000;
/** A media upload of up to 50 MiB gets longer than a JSON call. */
export const MATRIX_UPLOAD_TIMEOUT_MS = 120_000;
/** How long the homeserver's upload limit (`m.upload.size`) is trusted before it is asked again. */
const MEDIA_CONFIG_TTL_MS = 10 * 60_000;
const MATRIX_RESPONSE_MAX_BYTES = 64 * 1024;
/** How long a call waits out the homeserver's `M_LIMIT_EXCEEDED` in all before giving up. */
export const RATE_LIMIT_BUDGET_MS = 10_000;
/** The wait when a 429 names none (Synapse always does; the spec makes it optional). */
const DEFAULT_RETRY_AFTER_MS = 1_000;

/** The homeserver answered with a Matrix error (`{errcode, error}`). */
export class MatrixError extends Error {
  constructor(
    readonly status: number,
    readonly errcode: string,
    message: string,
    /** From `retry_after_ms` or `Retry-After` on a 429. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
    this.name = 'MatrixError';
  }
}

/** The homeserver could not be reached, or none is configured. */
export class MatrixUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MatrixUnavailable';
  }
}

/** Still rate-limited when the budget ran out: the caller may retry after `retryAfterMs`. */
export class MatrixRateLimited extends Error {
  constructor(readonly retryAfterMs: number) {
    super(`the homeserver is rate-limiting the bot; retry after ${retryAfterMs} ms`);
    this.name = 'MatrixRateLimited';
  }
}

export interface MessageContent {
  msgtype: 'm.text' | 'm.notice';
  body: string;
  format?: 'org.matrix.custom.html';
  formatted_body?: string;
  'm.relates_to'?: { 'm.in_reply_to': { event_id: string } };
}

/** An event as `GET /rooms/{roomId}/event/{eventId}` returns it (the fields the gateway reads). */
export interface RoomEvent {
  event_id: string;
  sender: string;
  type: string;
  /** State events (a member's user id for `m.room.member`). */
  state_key?: string;
  content: Record<string, unknown>;
}

export interface MatrixBot {
  /** PUT `/rooms/{roomId}/send/m.room.message/{txnId}`: the same txnId gives the same event. */
  sendMessage(roomId: string, content: MessageContent, txnId: string): Promise<string>;
  /** PUT `/rooms/{roomId}/send/{type}/{txnId}`: any event type (an edit, a reaction). */
  sendEvent(
    roomId: string,
    type: string,
    content: Record<string, unknown>,
    txnId: string,
  ): Promise<string>;
  /** GET `/rooms/{roomId}/event/{eventId}`. */
  getEvent(roomId: string, eventId: string): Promise<RoomEvent>;
  /** PUT `/rooms/{roomId}/redact/{eventId}/{txnId}` → the redaction's event id. */
  redact(roomId: string, eventId: string, txnId: string, reason?: string): Promise<string>;
  /**
   * GET `/_matrix/client/v1/rooms/{roomId}/relations/{eventId}/m.annotation/m.reaction`, every
   * page: the reactions to an event.
   */
  reactionsTo(roomId: string, eventId: string): Promise<RoomEvent[]>;
  /** POST `/rooms/{roomId}/invite`. */
  invite(roomId: string, userId: string): Promise<void>;
  /** GET `/rooms/{roomId}/state/m.room.member/{userId}` → the membership, or null when none. */
  membership(roomId: string, userId: string): Promise<string | null>;
  /** GET `/account/whoami` → the bot's own user id (asked once, then kept). */
  whoAmI(): Promise<string>;
  /** GET `/joined_rooms`. */
  joinedRooms(): Promise<string[]>;
  /** The room's name (`m.room.name` state; null without one) and its joined member count. */
  roomSummary(roomId: string): Promise<{ name: string | null; joinedMembers: number }>;
  /** GET `/rooms/{roomId}/members?membership=…`: member events (the homeserver does not page). */
  members(roomId: string, membership: 'join' | 'invite'): Promise<RoomEvent[]>;
  /** POST `/join/{roomIdOrAlias}` → the joined room's id. */
  joinRoom(roomIdOrAlias: string): Promise<string>;
  /** POST `/createRoom`: a private direct room with `userId` invited. */
  createDirectRoom(userId: string): Promise<string>;
  /**
   * POST `/_matrix/media/v3/upload?filename=…` with a `Content-Length` (Synapse refuses an
   * upload without one) → the `mxc://` URI.
   */
  upload(bytes: Buffer, mimetype: string, filename: string): Promise<string>;
  /**
   * GET `/_matrix/client/v1/media/config` → `m.upload.size`, the homeserver's largest upload in
   * bytes (null when it names none); asked at most every ten minutes.
   */
  uploadLimit(): Promise<number | null>;
  /** GET `/directory/list/room/{roomId}`: whether the homeserver knows the room at all. */
  roomExists(roomId: string): Promise<boolean>;
  close(): Promise<void>;
}

export interface MatrixBotOptions {
  homeserverUrl: string | undefined;
  accessToken: string | undefined;
  /** Total wait for `M_LIMIT_EXCEEDED` per call. */
  rateLimitBudgetMs?: number;
}

const enc = encodeURIComponent;

export function createMatrixBot(options: MatrixBotOptions): MatrixBot {
  const { homeserverUrl, accessToken } = options;
  const budgetMs = options.rateLimitBudgetMs ?? RATE_LIMIT_BUDGET_MS;
  const base = homeserverUrl?.replace(/\/+$/, '');
  const outbound: OutboundClient | null = base
    ? createOutboundClient({
        // The operator's own homeserver: trusted by configuration, even on a private address.
        allowedHosts: [new URL(base).hostname],
        timeoutMs: MATRIX_TIMEOUT_MS,
        maxResponseBytes: MATRIX_RESPONSE_MAX_BYTES,
      })
    : null;
  const uploads: OutboundClient | null = base
    ? createOutboundClient({
        allowedHosts: [new URL(base).hostname],
        timeoutMs: MATRIX_UPLOAD_TIMEOUT_MS,
        maxResponseBytes: MATRIX_RESPONSE_MAX_BYTES,
      })
    : null;
  type Api = 'client/v3' | 'client/v1' | 'media/v3';

  async function once<T>(
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    body?: unknown,
    api: Api = 'client/v3',
  ): Promise<T> {
    if (!outbound || !uploads || !base || !accessToken) {
      throw new MatrixUnavailable(
        'no Matrix homeserver is configured (MATRIX_HOMESERVER_URL, MATRIX_ACCESS_TOKEN)',
      );
    }
    const url = `${base}/_matrix/${api}${path}`;
    const headers = { authorization: `Bearer ${accessToken}` };
    let response;
    try {
      response =
        body instanceof RawBody
          ? await uploads.postBytes(url, body.bytes, { ...headers, 'content-type': body.type })
          : method === 'GET'
            ? await outbound.getJson(url, headers)
            : method === 'PUT'
              ? await outbound.putJson(url, JSON.stringify(body ?? {}), headers)
              : await outbound.postJson(url, JSON.stringify(body ?? {}), headers);
    } catch (error) {
      if (error instanceof OutboundError) {
        throw new MatrixUnavailable(`the homeserver is unreachable: ${error.message}`, {
          cause: error,
        });
      }
      throw error;
    }
    const parsed = parseJson(response.body);
    if (response.status >= 200 && response.status < 300) return parsed as T;
    const { errcode, error, retry_after_ms } = (parsed ?? {}) as Record<string, unknown>;
    if (typeof errcode !== 'string') {
      throw new MatrixUnavailable(`the homeserver answered ${response.status}`);
    }
    const retryAfterMs =
      typeof retry_after_ms === 'number'
        ? retry_after_ms
        : retryAfterHeader(response.headers['retry-after']);
    throw new MatrixError(
      response.status,
      errcode,
      typeof error === 'string' ? error : errcode,
      response.status === 429 || errcode === 'M_LIMIT_EXCEEDED' ? retryAfterMs : null,
    );
  }

  /** One call, with `M_LIMIT_EXCEEDED` waited out while the budget lasts. */
  async function call<T>(
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    body?: unknown,
    api: Api = 'client/v3',
  ) {
    const deadline = Date.now() + budgetMs;
    for (;;) {
      try {
        return await once<T>(method, path, body, api);
      } catch (error) {
        if (!(error instanceof MatrixError) || error.errcode !== 'M_LIMIT_EXCEEDED') throw error;
        const waitMs = Math.max(error.retryAfterMs ?? DEFAULT_RETRY_AFTER_MS, 1);
        if (Date.now() + waitMs > deadline) throw new MatrixRateLimited(waitMs);
        await sleep(waitMs);
      }
    }
  }

  let ownUserId: string | null = null;
  let uploadLimit: { bytes: number | null; until: number } | null = null;

  return {
    async sendMessage(roomId, content, txnId) {
      const path = `/rooms/${enc(roomId)}/send/m.room.message/${enc(txnId)}`;
      return (await call<{ event_id: string }>('PUT', path, content)).event_id;
    },
    async sendEvent(roomId, type, content, txnId) {
      const path = `/rooms/${enc(roomId)}/send/${enc(type)}/${enc(txnId)}`;
      return (await call<{ event_id: string }>('PUT', path, content)).event_id;
    },
    async getEvent(roomId, eventId) {
      return call<RoomEvent>('GET', `/rooms/${enc(roomId)}/event/${enc(eventId)}`);
    },
    async redact(roomId, eventId, txnId, reason) {
      const path = `/rooms/${enc(roomId)}/redact/${enc(eventId)}/${enc(txnId)}`;
      return (await call<{ event_id: string }>('PUT', path, reason ? { reason } : {})).event_id;
    },
    async reactionsTo(roomId, eventId) {
      const events: RoomEvent[] = [];
      let from: string | undefined;
      // Pages of the homeserver's own size; a bot's reactions to one event are few.
      for (let page = 0; page < 50; page++) {
        const query = `?limit=100${from ? `&from=${enc(from)}` : ''}`;
        const path = `/rooms/${enc(roomId)}/relations/${enc(eventId)}/m.annotation/m.reaction${query}`;
        const answer = await call<{ chunk: RoomEvent[]; next_batch?: string }>(
          'GET',
          path,
          undefined,
          'client/v1',
        );
        events.push(...answer.chunk);
        if (!answer.next_batch) break;
        from = answer.next_batch;
      }
      return events;
    },
    async invite(roomId, userId) {
      await call('POST', `/rooms/${enc(roomId)}/invite`, { user_id: userId });
    },
    async membership(roomId, userId) {
      try {
        const state = await call<{ membership?: string }>(
          'GET',
          `/rooms/${enc(roomId)}/state/m.room.member/${enc(userId)}`,
        );
        return state.membership ?? null;
      } catch (error) {
        if (error instanceof MatrixError && error.errcode === 'M_NOT_FOUND') return null;
        throw error;
      }
    },
    async joinedRooms() {
      return (await call<{ joined_rooms: string[] }>('GET', '/joined_rooms')).joined_rooms;
    },
    async roomSummary(roomId) {
      const [name, joined] = await Promise.all([
        call<{ name?: string }>('GET', `/rooms/${enc(roomId)}/state/m.room.name`).catch(
          (error: unknown) => {
            if (error instanceof MatrixError && error.errcode === 'M_NOT_FOUND') {
              return { name: undefined };
            }
            throw error;
          },
        ),
        call<{ joined: Record<string, unknown> }>('GET', `/rooms/${enc(roomId)}/joined_members`),
      ]);
      return {
        name: typeof name.name === 'string' && name.name !== '' ? name.name : null,
        joinedMembers: Object.keys(joined.joined).length,
      };
    },
    async members(roomId, membership) {
      const path = `/rooms/${enc(roomId)}/members?membership=${membership}`;
      return (await call<{ chunk: RoomEvent[] }>('GET', path)).chunk;
    },
    async whoAmI() {
      ownUserId ??= (await call<{ user_id: string }>('GET', '/account/whoami')).user_id;
      return ownUserId;
    },
    async joinRoom(roomIdOrAlias) {
      return (await call<{ room_id: string }>('POST', `/join/${enc(roomIdOrAlias)}`, {})).room_id;
    },
    async createDirectRoom(userId) {
      const created = await call<{ room_id: string }>('POST', '/createRoom', {
        preset: 'trusted_private_chat',
        is_direct: true,
        invite: [userId],
      });
      return created.room_id;
    },
    async roomExists(roomId) {
      try {
        await call('GET', `/directory/list/room/${enc(roomId)}`);
        return true;
      } catch (error) {
        if (error instanceof MatrixError && error.status === 404) return false;
        throw error;
      }
    },
    async upload(bytes, mimetype, filename) {
      const path = `/upload?filename=${enc(filename)}`;
      const answer = await call<{ content_uri: string }>(
        'POST',
        path,
        new RawBody(bytes, mimetype),
        'media/v3',
      );
      return answer.content_uri;
    },
    async uploadLimit() {
      if (uploadLimit && uploadLimit.until > Date.now()) return uploadLimit.bytes;
      const config = await call<{ 'm.upload.size'?: unknown }>(
        'GET',
        '/media/config',
        undefined,
        'client/v1',
      );
      const size = config['m.upload.size'];
      const bytes = typeof size === 'number' && size > 0 ? size : null;
      uploadLimit = { bytes, until: Date.now() + MEDIA_CONFIG_TTL_MS };
      return bytes;
    },
    close: async () => {
      await Promise.all([outbound?.close(), uploads?.close()]);
    },
  };
}

/** A request body sent as it is (an upload), not as JSON. */
class RawBody {
  constructor(
    readonly bytes: Buffer,
    readonly type: string,
  ) {}
}

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return null;
  }
}

function retryAfterHeader(value: string | undefined): number | null {
  if (value === undefined) return null;
  const seconds = Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds * 1000) : null;
}
