import { createHash, randomUUID } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import stringify from 'safe-stable-stringify';
import { AppError } from '../../shared/errors';

/**
 * `Idempotency-Key` on POST, PATCH and DELETE (decisions §2, IETF draft, Stripe).
 *
 * The key is claimed in PostgreSQL with one atomic upsert before the handler runs, so two
 * requests with the same key on any number of API instances never both execute. The
 * finished response (status < 500) is stored and replayed for 24 h; a 5xx releases the key
 * so the client can retry. A claim whose owner died is taken over after the lock lease.
 */

declare module 'fastify' {
  interface FastifyRequest {
    /** Id of the idempotency record this request claimed; null when it claimed none. */
    idempotencyClaim: string | null;
  }
}

const GUARDED_METHODS = new Set(['POST', 'PATCH', 'DELETE']);
const KEY_FORMAT = /^[\x20-\x7e]{1,255}$/;
const RETENTION = "interval '24 hours'";
const LOCK_LEASE = "interval '120 seconds'";
/** Response headers replayed with the stored body; the rest belong to the first response. */
const REPLAYED_HEADERS = ['content-type', 'location', 'link', 'deprecation', 'retry-after'];

interface StoredKey {
  fingerprint: string;
  status: 'in_progress' | 'completed';
  response_status: number | null;
  response_headers: Record<string, string> | null;
  response_body: string | null;
}

function principalOf(request: FastifyRequest): string {
  return request.actor ? `user:${request.actor.userId}` : `ip:${request.ip}`;
}

function pathOf(request: FastifyRequest): string {
  return request.url.split('?')[0] ?? '/';
}

async function claim(request: FastifyRequest, key: string, fingerprint: string) {
  const id = randomUUID();
  const params = [id, principalOf(request), request.method, pathOf(request), key, fingerprint];
  // Inserts a fresh claim, or takes over an expired record or an abandoned in-flight one.
  const claimed = await request.em.execute<{ id: string }[]>(
    `insert into idempotency_keys
       (id, principal, method, path, key, fingerprint, status, locked_at, created_at, expires_at)
     values (?, ?, ?, ?, ?, ?, 'in_progress', now(), now(), now() + ${RETENTION})
     on conflict (principal, method, path, key) do update set
       id = excluded.id, fingerprint = excluded.fingerprint, status = 'in_progress',
       response_status = null, response_headers = null, response_body = null,
       locked_at = now(), created_at = now(), expires_at = excluded.expires_at
     where idempotency_keys.expires_at <= now()
        or (idempotency_keys.status = 'in_progress'
            and idempotency_keys.locked_at < now() - ${LOCK_LEASE})
     returning id`,
    params,
  );
  if (claimed.length > 0) return { claimed: true as const, id };
  const [existing] = await request.em.execute<StoredKey[]>(
    `select fingerprint, status, response_status, response_headers, response_body
       from idempotency_keys where principal = ? and method = ? and path = ? and key = ?`,
    params.slice(1, 5),
  );
  return { claimed: false as const, existing };
}

function replay(reply: FastifyReply, stored: StoredKey): FastifyReply {
  reply.code(stored.response_status ?? 200);
  for (const [name, value] of Object.entries(stored.response_headers ?? {})) {
    reply.header(name, value);
  }
  reply.header('idempotent-replayed', 'true');
  return reply.send(stored.response_body ?? undefined);
}

async function release(request: FastifyRequest, id: string): Promise<void> {
  await request.em.execute('delete from idempotency_keys where id = ?', [id]);
}

/** SHA-256 of the canonical JSON (sorted keys) of the validated body and query. */
function fingerprintOf(request: FastifyRequest): string {
  const canonical = stringify({ body: request.body ?? null, query: request.query ?? null }) ?? '';
  return createHash('sha256').update(canonical).digest('hex');
}

/** Claims the key, or answers from the stored record. Runs after validation and auth. */
async function claimOrReplay(request: FastifyRequest, reply: FastifyReply) {
  const key = request.headers['idempotency-key'];
  if (key === undefined || !GUARDED_METHODS.has(request.method)) return;
  if (typeof key !== 'string' || !KEY_FORMAT.test(key)) {
    throw new AppError(
      'invalid_request',
      'Idempotency-Key: must be 1 to 255 printable ASCII characters',
    );
  }
  const fingerprint = fingerprintOf(request);
  const result = await claim(request, key, fingerprint);
  if (result.claimed) {
    request.idempotencyClaim = result.id;
    return;
  }
  const existing = result.existing;
  if (!existing) {
    // Released between our insert and select: the client may simply retry.
    throw new AppError('idempotency_in_progress', 'Idempotency-Key: retry this request');
  }
  if (existing.fingerprint !== fingerprint) {
    throw new AppError(
      'idempotency_key_reused',
      'Idempotency-Key: was already used with a different request body',
    );
  }
  if (existing.status === 'in_progress') {
    throw new AppError(
      'idempotency_in_progress',
      'Idempotency-Key: a request with this key is still being processed',
    );
  }
  return replay(reply, existing);
}

/** Stores the final response before it leaves, so a retry after it arrives is a replay. */
async function storeResponse(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
  const claimed = request.idempotencyClaim;
  if (!claimed) return payload;
  request.idempotencyClaim = null;
  const body = payload === undefined || payload === null ? null : payload;
  try {
    if (reply.statusCode >= 500 || (body !== null && typeof body !== 'string')) {
      await release(request, claimed);
      return payload;
    }
    const headers: Record<string, string> = {};
    for (const name of REPLAYED_HEADERS) {
      const value = reply.getHeader(name);
      if (value !== undefined) headers[name] = String(value);
    }
    await request.em.execute(
      `update idempotency_keys set status = 'completed', response_status = ?,
         response_headers = ?, response_body = ?, locked_at = null where id = ?`,
      [reply.statusCode, JSON.stringify(headers), body, claimed],
    );
  } catch (err) {
    // The response is still correct; the key stays locked until its lease runs out.
    request.log.error({ err }, 'could not store the idempotent response');
  }
  return payload;
}

/** A request that ended without sending (aborted, hijacked) must not hold its key forever. */
async function releaseUnfinished(request: FastifyRequest): Promise<void> {
  const claimed = request.idempotencyClaim;
  if (!claimed) return;
  request.idempotencyClaim = null;
  await release(request, claimed);
}

function appendHook<T>(existing: T | T[] | undefined, hook: T): T[] {
  return [...(existing === undefined ? [] : Array.isArray(existing) ? existing : [existing]), hook];
}

async function idempotencyPlugin(app: FastifyInstance): Promise<void> {
  app.decorateRequest('idempotencyClaim', null);
  // Only write routes carry the hooks, so reads pay nothing for idempotency.
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.some((method) => GUARDED_METHODS.has(method.toUpperCase()))) return;
    route.preHandler = appendHook(route.preHandler, claimOrReplay as never);
    route.onSend = appendHook(route.onSend, storeResponse as never);
    route.onResponse = appendHook(route.onResponse, releaseUnfinished as never);
  });
}

export default fp(idempotencyPlugin, {
  name: 'idempotency',
  fastify: '5.x',
  dependencies: ['request-context'],
});
