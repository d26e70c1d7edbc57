import { createHash, randomUUID } from 'node:crypto';
import fp from 'fastify-plugin';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onSendHookHandler,
  RouteOptions,
} from 'fastify';
import stringify from 'safe-stable-stringify';
import { sqlOf, statement } from '../../shared/db/sql';
import type { SealedBox } from '../../shared/domain/sealed-box';
import { AppError } from '../../shared/errors';

/**
 * `Idempotency-Key` on POST, PATCH and DELETE (docs/spec/contract.md §2, IETF draft, Stripe).
 *
 * The key is claimed in PostgreSQL with one atomic upsert before the handler runs, so two
 * requests with the same key on any number of API instances never both execute. The
 * finished response (status < 500) is stored and replayed for 24 h; a 5xx releases the key
 * so the client can retry. A claim whose owner died is taken over after the lock lease.
 *
 * A route whose response shows a secret once (`config.secretResponse`: a raw API key, a
 * signing secret) has its stored body sealed (AES-256-GCM, bound to the record) and every
 * response marked `Cache-Control: no-store`, first answer and replay alike.
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The response shows a secret once: stored for replay only sealed, never cached.
     * The one marker of such routes; read here and by the OpenAPI document.
     */
    secretResponse?: boolean;
    /**
     * The route hands the key to its upstream, which deduplicates by it (the bot gateway: the
     * Matrix `txnId`), so nothing is claimed or stored here.
     */
    upstreamIdempotency?: boolean;
    /**
     * The handler claims the key itself, with `claimIdempotencyKey`, once it knows what the
     * request asks (a multipart upload's file is only known after its bytes are read, and
     * the plugin's fingerprint sees only JSON bodies). The response is stored as elsewhere.
     */
    idempotencyInHandler?: boolean;
  }
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
/**
 * `Retry-After` of 409 `idempotency_in_progress`: most requests finish well within a second,
 * and a retry while the first still runs costs one indexed upsert and select.
 */
const IN_PROGRESS_RETRY_AFTER_SECONDS = 1;

interface StoredKey {
  id: string;
  fingerprint: string;
  status: 'in_progress' | 'completed';
  responseStatus: number | null;
  responseHeaders: Record<string, string> | null;
  responseBody: string | null;
}

/** Who asked what with which key: a record's unique identity. */
type KeyOf = [principal: string, method: string, path: string, key: string];

/**
 * Inserts a fresh claim, or takes over an expired record or an abandoned in-flight one; a row
 * only when this request now holds the key.
 */
const claimKey = statement<{ id: string }, [id: string, ...KeyOf, fingerprint: string]>(
  'idempotency.claim',
  `insert into idempotency_keys
     (id, principal, method, path, key, fingerprint, status, locked_at, created_at, expires_at)
   values ($1, $2, $3, $4, $5, $6, 'in_progress', now(), now(), now() + ${RETENTION})
   on conflict (principal, method, path, key) do update set
     id = excluded.id, fingerprint = excluded.fingerprint, status = 'in_progress',
     response_status = null, response_headers = null, response_body = null,
     locked_at = now(), created_at = now(), expires_at = excluded.expires_at
   where idempotency_keys.expires_at <= now()
      or (idempotency_keys.status = 'in_progress'
          and idempotency_keys.locked_at < now() - ${LOCK_LEASE})
   returning id`,
);

/** The record another request holds for the same key. */
const storedKey = statement<StoredKey, KeyOf>(
  'idempotency.stored',
  `select id, fingerprint, status, response_status as "responseStatus",
          response_headers as "responseHeaders", response_body as "responseBody"
     from idempotency_keys where principal = $1 and method = $2 and path = $3 and key = $4`,
);

/** A 5xx or an unfinished request gives its key back: the client may retry. */
const releaseKey = statement<Record<string, never>, [id: string]>(
  'idempotency.release',
  'delete from idempotency_keys where id = $1',
);

/** The finished response, kept for replay until the record expires. */
const completeKey = statement<
  Record<string, never>,
  [status: number, headers: string, body: string | null, id: string]
>(
  'idempotency.complete',
  `update idempotency_keys set status = 'completed', response_status = $1,
     response_headers = $2::jsonb, response_body = $3, locked_at = null where id = $4`,
);

function principalOf(request: FastifyRequest): string {
  if (request.actor) return `user:${request.actor.userId}`;
  return request.botCaller ? `bot:${request.botCaller}` : `ip:${request.ip}`;
}

function pathOf(request: FastifyRequest): string {
  return request.url.split('?')[0] ?? '/';
}

function isSecretRoute(request: FastifyRequest): boolean {
  return request.routeOptions.config.secretResponse === true;
}

/**
 * What a sealed body is bound to: its record and the request that record answers. A sealed
 * body copied to another record, principal, route or key no longer opens.
 */
function sealContext(request: FastifyRequest, recordId: string): string[] {
  const key = String(request.headers['idempotency-key']);
  return [recordId, principalOf(request), request.method, pathOf(request), key];
}

async function claim(request: FastifyRequest, key: string, fingerprint: string) {
  const id = randomUUID();
  const keyOf: KeyOf = [principalOf(request), request.method, pathOf(request), key];
  const sql = sqlOf(request.em);
  const claimed = await sql.row(claimKey, [id, ...keyOf, fingerprint]);
  if (claimed) return { claimed: true as const, id };
  const existing = await sql.row(storedKey, keyOf);
  return { claimed: false as const, existing };
}

/**
 * The stored body as it was sent. A secret route's body must open under this record's
 * context: one that does not (edited, moved from another record, sealed under a previous
 * `JWT_SECRET`, or stored in plaintext) is refused rather than sent, and the record is kept
 * so that the request is not run a second time.
 */
function storedBody(box: SealedBox, request: FastifyRequest, stored: StoredKey): string | null {
  if (stored.responseBody === null || !isSecretRoute(request)) return stored.responseBody;
  const opened = box.open(stored.responseBody, sealContext(request, stored.id));
  if (opened !== null) return opened;
  request.log.error(
    { idempotencyRecord: stored.id },
    'sealed idempotent response did not open (edited, moved or sealed under another key)',
  );
  throw new AppError(
    'idempotency_replay_unavailable',
    'Idempotency-Key: a request with this key was already processed, but its stored ' +
      'response can no longer be replayed',
  );
}

function replay(box: SealedBox, request: FastifyRequest, reply: FastifyReply, stored: StoredKey) {
  const body = storedBody(box, request, stored);
  reply.code(stored.responseStatus ?? 200);
  for (const [name, value] of Object.entries(stored.responseHeaders ?? {})) {
    reply.header(name, value);
  }
  reply.header('idempotent-replayed', 'true');
  return reply.send(body ?? undefined);
}

async function release(request: FastifyRequest, id: string): Promise<void> {
  await sqlOf(request.em).run(releaseKey, [id]);
}

/** SHA-256 of the canonical JSON (sorted keys) of what the request asks. */
function fingerprintOf(what: unknown): string {
  const canonical = stringify(what) ?? '';
  return createHash('sha256').update(canonical).digest('hex');
}

function inProgress(message: string): AppError {
  return new AppError('idempotency_in_progress', message, {
    'retry-after': String(IN_PROGRESS_RETRY_AFTER_SECONDS),
  });
}

/** Claims the key, or answers from the stored record. Runs after validation and auth. */
async function claimOrReplay(
  box: SealedBox,
  request: FastifyRequest,
  reply: FastifyReply,
  what: unknown = { body: request.body ?? null, query: request.query ?? null },
) {
  const key = request.headers['idempotency-key'];
  if (key === undefined || !GUARDED_METHODS.has(request.method)) return;
  if (typeof key !== 'string' || !KEY_FORMAT.test(key)) {
    throw new AppError(
      'invalid_request',
      'Idempotency-Key: must be 1 to 255 printable ASCII characters',
    );
  }
  const fingerprint = fingerprintOf(what);
  const result = await claim(request, key, fingerprint);
  if (result.claimed) {
    request.idempotencyClaim = result.id;
    return;
  }
  const existing = result.existing;
  if (!existing) {
    // Released between our insert and select: the client may simply retry.
    throw inProgress('Idempotency-Key: retry this request');
  }
  if (existing.fingerprint !== fingerprint) {
    throw new AppError(
      'idempotency_key_reused',
      'Idempotency-Key: was already used with a different request body',
    );
  }
  if (existing.status === 'in_progress') {
    throw inProgress('Idempotency-Key: a request with this key is still being processed');
  }
  return replay(box, request, reply, existing);
}

/**
 * For a route with `config.idempotencyInHandler`: claims the request's `Idempotency-Key` (if
 * it has one) for `what` (a canonical description of the request: its fields and the file's
 * hash). True when the key was used before and the stored answer has been sent: the handler
 * then returns the reply and does nothing else. Throws `idempotency_key_reused` and
 * `idempotency_in_progress` as the plugin does.
 */
export async function claimIdempotencyKey(
  request: FastifyRequest,
  reply: FastifyReply,
  what: unknown,
): Promise<boolean> {
  const replayed = await claimOrReplay(request.server.access.storedResponses, request, reply, what);
  return replayed !== undefined;
}

/** Stores the final response before it leaves, so a retry after it arrives is a replay. */
async function storeResponse(
  box: SealedBox,
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
) {
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
    const stored =
      body !== null && isSecretRoute(request)
        ? box.seal(body, sealContext(request, claimed))
        : body;
    await sqlOf(request.em).run(completeKey, [
      reply.statusCode,
      JSON.stringify(headers),
      stored,
      claimed,
    ]);
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

/** Every response of a secret route, errors and replays included: no cache may keep it. */
const noStore: onSendHookHandler = (_request, reply, payload, done) => {
  reply.header('cache-control', 'no-store');
  done(null, payload);
};

function appendHook<T>(existing: T | T[] | undefined, hook: T): T[] {
  return [...(existing === undefined ? [] : Array.isArray(existing) ? existing : [existing]), hook];
}

async function idempotencyPlugin(app: FastifyInstance): Promise<void> {
  const box = app.access.storedResponses;
  app.decorateRequest('idempotencyClaim', null);
  app.addHook('onRoute', (route: RouteOptions) => {
    if (route.config?.secretResponse) route.onSend = appendHook(route.onSend, noStore as never);
    // Only write routes carry the idempotency hooks, so reads pay nothing for idempotency.
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.some((method) => GUARDED_METHODS.has(method.toUpperCase()))) return;
    if (route.config?.upstreamIdempotency) return;
    const preHandler = (request: FastifyRequest, reply: FastifyReply) =>
      claimOrReplay(box, request, reply);
    const onSend = (request: FastifyRequest, reply: FastifyReply, payload: unknown) =>
      storeResponse(box, request, reply, payload);
    if (!route.config?.idempotencyInHandler) {
      route.preHandler = appendHook(route.preHandler, preHandler as never);
    }
    route.onSend = appendHook(route.onSend, onSend as never);
    route.onResponse = appendHook(route.onResponse, releaseUnfinished as never);
  });
}

export default fp(idempotencyPlugin, {
  name: 'idempotency',
  fastify: '5.x',
  // The principal comes from auth, and so does the key that seals secret responses.
  dependencies: ['request-context', 'auth'],
});
