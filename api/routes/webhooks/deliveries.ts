import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { z } from 'zod';
import type { CursorCodec } from '../../../shared/domain/cursor';
import type { Config } from '../../../shared/config';
import { WebhookDelivery } from '../../../shared/db/entities';
import type { EntityManager } from '../../../shared/db/orm';
import { AppError } from '../../../shared/errors';
import {
  webhookTaskQueue,
  TEMPORAL_CALL_DEADLINE_MS,
  workflowIds,
  workflowTypes,
  type WebhookDeliveryInput,
} from '../../../shared/temporal';
import { PING_EVENT } from '../../../shared/webhooks/events';
import { keyset, type Keyset } from '../../plugins/keyset';
import { pageScope } from '../../plugins/pagination';
import {
  DELIVERY_ORDER,
  deliveryPage,
  ownedWebhook as ownedWebhookQuery,
  type DeliveryRow,
} from './queries';
import type { deliverySchema } from './schemas';
import { isUuid, ownedWebhook, webhookNotFound, type WebhookReadDeps } from './service';

/**
 * Deliveries started by hand: a test ping and a redelivery. Each writes a `pending` delivery row,
 * starts its `webhook-delivery:<deliveryId>` workflow and returns; it never waits for the POST.
 */

export interface DeliveryServiceDeps {
  em: EntityManager;
  config: Pick<Config, 'temporal'>;
  temporal: Client;
}

interface NewDelivery {
  webhookId: string;
  event: string;
  payload: Record<string, unknown>;
}

async function insertDelivery(em: EntityManager, delivery: NewDelivery): Promise<string> {
  const id = randomUUID();
  await em.insert(WebhookDelivery, {
    id,
    webhook: delivery.webhookId,
    outboxEventId: null,
    event: delivery.event,
    payload: delivery.payload,
    status: 'pending',
    attempts: 0,
    createdAt: new Date(),
    completedAt: null,
  });
  return id;
}

/**
 * Starts the delivery's workflow. When Temporal does not answer, the start may still have
 * reached it: a delivery whose workflow already made an attempt stands; one still untouched is
 * deleted and the caller gets 503 (a workflow started after all finds no row and ends).
 */
async function startDelivery(deps: DeliveryServiceDeps, deliveryId: string): Promise<void> {
  const input: WebhookDeliveryInput = { deliveryId };
  try {
    await deps.temporal.connection.withDeadline(Date.now() + TEMPORAL_CALL_DEADLINE_MS, () =>
      deps.temporal.workflow.start(workflowTypes.webhookDelivery, {
        workflowId: workflowIds.webhookDelivery(deliveryId),
        taskQueue: webhookTaskQueue(deps.config.temporal.taskQueue),
        args: [input],
      }),
    );
  } catch (error) {
    const undone = await deps.em.nativeDelete(WebhookDelivery, {
      id: deliveryId,
      status: 'pending',
      attempts: 0,
    });
    if (undone === 0) return;
    throw Object.assign(
      new AppError('service_unavailable', 'The delivery service is unreachable; try again later'),
      { cause: error },
    );
  }
}

/** `POST /me/webhooks/:id/test`: a `ping` with its own envelope id. */
export async function sendTestPing(deps: DeliveryServiceDeps, userId: number, webhookId: string) {
  const webhook = await ownedWebhook(deps.em, userId, webhookId);
  const deliveryId = await insertDelivery(deps.em, {
    webhookId: webhook.id,
    event: PING_EVENT,
    payload: {
      id: randomUUID(),
      event: PING_EVENT,
      user_id: userId,
      created_at: new Date().toISOString(),
      data: { webhook_id: webhook.id },
    },
  });
  await startDelivery(deps, deliveryId);
  return { delivery_id: deliveryId };
}

async function ownedDelivery(em: EntityManager, webhookId: string, deliveryId: string) {
  const delivery = isUuid(deliveryId)
    ? await em.findOne(WebhookDelivery, { id: deliveryId, webhook: webhookId })
    : null;
  if (!delivery) {
    throw new AppError('delivery_not_found', `delivery ${deliveryId.slice(0, 64)} does not exist`);
  }
  return delivery;
}

/**
 * A new delivery of the same envelope (same `id`, so a receiver that already processed it
 * dedupes it), with its own history. The original delivery is left as it was.
 */
export async function redeliver(
  deps: DeliveryServiceDeps,
  userId: number,
  webhookId: string,
  deliveryId: string,
) {
  const webhook = await ownedWebhook(deps.em, userId, webhookId);
  const original = await ownedDelivery(deps.em, webhook.id, deliveryId);
  const newId = await insertDelivery(deps.em, {
    webhookId: webhook.id,
    event: original.event,
    payload: original.payload,
  });
  await startDelivery(deps, newId);
  return { delivery_id: newId };
}

type PublicDelivery = z.infer<typeof deliverySchema>;

function publicDelivery(delivery: DeliveryRow): PublicDelivery {
  return {
    id: delivery.id,
    event: delivery.event,
    // As the envelope held it: a number becomes its digits, a missing id "undefined".
    event_id: String(delivery.hasEventId ? delivery.eventId : undefined),
    status: delivery.status,
    attempts: delivery.attempts.map((attempt) => ({
      attempt: attempt.attempt,
      started_at: attempt.started_at,
      status_code: attempt.status_code,
      duration_ms: attempt.duration_ms,
      error: attempt.error,
    })),
    created_at: delivery.createdAt,
    completed_at: delivery.completedAt,
  };
}

/** A subscription's deliveries, newest first, each with its attempts in order. */
export async function listDeliveries(
  deps: WebhookReadDeps & { cursors: CursorCodec },
  userId: number,
  webhookId: string,
  request: { cursor?: string | undefined; limit: number },
): Promise<{ items: PublicDelivery[]; nextCursor: string | null }> {
  if (!isUuid(webhookId)) throw webhookNotFound(webhookId);
  let page: Keyset<'createdAt' | 'id'>;
  try {
    page = keyset(deps.cursors, DELIVERY_ORDER, {
      // The id as PostgreSQL writes a uuid, as the scope always had it.
      scope: pageScope('webhook-deliveries', { webhook: webhookId.toLowerCase() }),
      cursor: request.cursor,
      limit: request.limit,
    });
  } catch (error) {
    // Someone else's subscription is a 404 whatever the cursor, as it always was.
    const owned = await deps.db.row(ownedWebhookQuery, [webhookId, userId]);
    if (!owned) throw webhookNotFound(webhookId);
    throw error;
  }
  const rows = await deps.db.rows(deliveryPage, [webhookId, userId, ...page.after, page.fetch]);
  if (rows.length === 0) throw webhookNotFound(webhookId);
  const deliveries = rows.filter((row): row is DeliveryRow => row.id !== null);
  const { items, nextCursor } = page.page(deliveries);
  return { items: items.map(publicDelivery), nextCursor };
}
