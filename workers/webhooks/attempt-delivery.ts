import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { ApplicationFailure } from '@temporalio/activity';
import { z } from 'zod';
import type { WebhookLastError } from '../../shared/db/entities/webhook';
import { sqlOf, statement } from '../../shared/db/sql';
import { signatureHeaders } from '../../shared/domain/signature';
import { recordDeliveryAttempt } from '../../shared/metrics/worker-metrics';
import { OutboundError, type OutboundClient } from '../../shared/net/outbound-client';
import { DELIVERY_RETRY_BASES_MS } from '../../shared/temporal/workflow-constants';

/** The first attempt and one per retry base. */
export const MAX_DELIVERY_ATTEMPTS = DELIVERY_RETRY_BASES_MS.length + 1;

export const attemptInput = z.object({
  deliveryId: z.string().uuid(),
  attempt: z.number().int().min(1).max(MAX_DELIVERY_ATTEMPTS),
});
export type AttemptInput = z.infer<typeof attemptInput>;

/**
 * What one attempt did. HTTP failures are values, not exceptions: only infrastructure failures
 * (database down, worker gone) throw, so Temporal's activity retry never re-counts them as
 * delivery attempts. `done`: the delivery reached `succeeded` or `failed`; stop.
 */
export interface AttemptResult {
  ok: boolean;
  status: number | null;
  error: string | null;
  done: boolean;
}

export interface AttemptDeps {
  orm: MikroORM;
  outbound: OutboundClient;
}

interface DeliveryTarget {
  status: 'pending' | 'succeeded' | 'failed';
  payload: { id: string } & Record<string, unknown>;
  webhookId: string;
  url: string;
  secret: string;
  /** The subscription was deleted. */
  deleted: boolean;
}

/** A delivery with its subscription's URL and secret (deleted ones too: they fail it). */
const deliveryTarget = statement<DeliveryTarget, [deliveryId: string]>(
  'webhooks.delivery_target',
  `select d.status, d.payload, w.id as "webhookId", w.url, w.secret,
          w.deleted_at is not null as deleted
     from webhook_deliveries d join webhooks w on w.id = d.webhook_id
    where d.id = $1`,
);

/** One attempt's record; a retried activity's record replaces the lost one. */
const upsertAttempt = statement<
  Record<string, never>,
  [
    deliveryId: string,
    attempt: number,
    startedAt: Date,
    durationMs: number,
    statusCode: number | null,
    error: string | null,
    responseBody: string | null,
  ]
>(
  'webhooks.upsert_attempt',
  `insert into webhook_delivery_attempts
     (delivery_id, attempt, started_at, duration_ms, status_code, error, response_body)
   values ($1, $2, $3, $4, $5, $6, $7)
   on conflict (delivery_id, attempt) do update set started_at = excluded.started_at,
     duration_ms = excluded.duration_ms, status_code = excluded.status_code,
     error = excluded.error, response_body = excluded.response_body`,
);

/** The delivery's attempt count, and its end when `settled`; only while it is pending. */
const settleDelivery = statement<
  Record<string, never>,
  [attempt: number, settled: 'succeeded' | 'failed' | null, deliveryId: string]
>(
  'webhooks.settle_delivery',
  `update webhook_deliveries set attempts = greatest(attempts, $1::int),
     status = coalesce($2::text, status),
     completed_at = case when $2::text is null then null else now() end
   where id = $3 and status = 'pending'`,
);

/** The subscription's last failed delivery. */
const setLastError = statement<Record<string, never>, [lastError: string, webhookId: string]>(
  'webhooks.set_last_error',
  `update webhooks set last_error = $1::jsonb where id = $2`,
);

interface Outcome {
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  responseBody: string | null;
}

/**
 * Attempt `attempt` of a delivery: POST the envelope, record the attempt, and settle the
 * delivery on success or on the last failure (then `last_error` goes on the subscription).
 * Works for any pending delivery row, whoever created it (dispatcher, test ping, redeliver).
 *
 * At least once: when the worker dies after the POST and before the record commits, the
 * retried activity POSTs again (same envelope id, fresh signature) and its record replaces the
 * lost one (upsert per (delivery, attempt)). A settled delivery is never sent again.
 */
export async function attemptDelivery(
  deps: AttemptDeps,
  rawInput: AttemptInput,
): Promise<AttemptResult> {
  const input = attemptInput.parse(rawInput);
  const em = deps.orm.em.fork();
  const target = await loadTarget(em, input.deliveryId);
  if (target.status !== 'pending') {
    return { ok: target.status === 'succeeded', status: null, error: null, done: true };
  }
  if (target.deleted) {
    const outcome = { startedAt: new Date(), durationMs: 0, statusCode: null, responseBody: null };
    await record(em, input, target, { ...outcome, error: 'subscription deleted' }, 'failed');
    recordDeliveryAttempt('failed_permanently', null);
    return { ok: false, status: null, error: 'subscription deleted', done: true };
  }

  const outcome = await send(deps.outbound, target);
  const ok = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
  const settled = ok ? 'succeeded' : input.attempt >= MAX_DELIVERY_ATTEMPTS ? 'failed' : null;
  await record(em, input, target, outcome, settled);
  // Counted after the record commits: an attempt whose record was lost counts once, by its retry.
  recordDeliveryAttempt(
    ok ? 'delivered' : settled ? 'failed_permanently' : 'failed_retrying',
    outcome.statusCode,
  );
  return { ok, status: outcome.statusCode, error: outcome.error, done: settled !== null };
}

async function loadTarget(em: EntityManager, deliveryId: string): Promise<DeliveryTarget> {
  const target = await sqlOf(em).row(deliveryTarget, [deliveryId]);
  if (!target) {
    throw ApplicationFailure.nonRetryable(`delivery ${deliveryId} not found`, 'delivery_not_found');
  }
  return target;
}

/** One signed POST; every failure the receiver's side can cause becomes a value. */
async function send(outbound: OutboundClient, target: DeliveryTarget): Promise<Outcome> {
  // The exact bytes signed are the bytes sent; jsonb renders the payload the same every time.
  const body = JSON.stringify(target.payload);
  const startedAt = new Date();
  const headers = signatureHeaders({
    secret: target.secret,
    id: target.payload.id,
    timestamp: Math.floor(startedAt.getTime() / 1000),
    body,
  });
  try {
    const response = await outbound.postJson(target.url, body, headers);
    return {
      startedAt,
      durationMs: response.durationMs,
      statusCode: response.status,
      error: null,
      responseBody: storableText(response.body),
    };
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    const durationMs = Date.now() - startedAt.getTime();
    return { startedAt, durationMs, statusCode: null, error: error.message, responseBody: null };
  }
}

/** PostgreSQL text cannot hold NUL; a receiver may answer anything. */
function storableText(body: string): string {
  return body.replaceAll('\u0000', '\uFFFD');
}

async function record(
  em: EntityManager,
  input: AttemptInput,
  target: DeliveryTarget,
  outcome: Outcome,
  settled: 'succeeded' | 'failed' | null,
): Promise<void> {
  await em.transactional(async (tx) => {
    const sql = sqlOf(tx);
    await sql.run(upsertAttempt, [
      input.deliveryId,
      input.attempt,
      outcome.startedAt,
      outcome.durationMs,
      outcome.statusCode,
      outcome.error,
      outcome.responseBody,
    ]);
    await sql.run(settleDelivery, [input.attempt, settled, input.deliveryId]);
    if (settled === 'failed' && !target.deleted) {
      const lastError: WebhookLastError = {
        at: new Date().toISOString(),
        deliveryId: input.deliveryId,
        status: outcome.statusCode,
        error: outcome.error ?? `receiver answered HTTP ${outcome.statusCode}`,
      };
      await sql.run(setLastError, [JSON.stringify(lastError), target.webhookId]);
    }
  });
}
