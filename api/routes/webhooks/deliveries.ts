import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { WebhookDelivery } from '../../../shared/db/entities';
import type { EntityManager } from '../../../shared/db/orm';
import { DependencyUnavailableError, TEMPORAL_RETRY_AFTER_SECONDS } from '../../../shared/errors';
import {
  webhookTaskQueue,
  workflowIds,
  workflowTypes,
  type WebhookDeliveryInput,
} from '../../../shared/temporal';
import { searchAttributes } from '../../../shared/temporal/search-attributes';
import { startWithDeadline } from '../../../shared/temporal/start-with-deadline';
import { PING_EVENT } from '../../../shared/webhooks/events';
import type { Actor } from '../../access/actor';
import { keyset, type Keyset } from '../../paging/keyset';
import { pageScope } from '../../paging/page';
import { isUuid } from '../../wire';
import {
  assertOwnedWebhook,
  ownedDelivery,
  ownedDeliveryPage,
  ownedWebhook,
  webhookNotFound,
} from './access';
import { DELIVERY_ORDER, type DeliveryRow } from './queries';
import type { DeliveryIdInput, DeliveryListInput, deliverySchema, WebhookIdInput } from './schemas';
import type { WebhookDeps } from './service';

/**
 * Deliveries started by hand: a test ping and a redelivery. Each writes a `pending` delivery row,
 * starts its `webhook-delivery:<deliveryId>` workflow and returns; it never waits for the POST.
 */

type DeliveryServiceDeps = Pick<WebhookDeps, 'em' | 'config' | 'temporal'>;

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
 * Whose delivery it is: its workflow's search attributes (docs/decisions.md, "Workflow search
 * attributes"), the same as a delivery the dispatcher starts.
 */
interface DeliveryOwner {
  userId: number;
  webhookId: string;
}

/**
 * Starts the delivery's workflow. When Temporal does not answer, the start may still have
 * reached it: a delivery whose workflow already made an attempt stands; one still untouched is
 * deleted and the caller gets 503 (a workflow started after all finds no row and ends).
 */
async function startDelivery(
  deps: DeliveryServiceDeps,
  deliveryId: string,
  owner: DeliveryOwner,
): Promise<void> {
  const input: WebhookDeliveryInput = { deliveryId };
  const outcome = await startWithDeadline(deps.temporal, workflowTypes.webhookDelivery, {
    workflowId: workflowIds.webhookDelivery(deliveryId),
    taskQueue: webhookTaskQueue(deps.config.temporal.taskQueue),
    args: [input],
    typedSearchAttributes: searchAttributes(owner),
  });
  if (!('error' in outcome)) return;
  // Refused or unanswered, the same conditional delete: a refused start left the row untouched.
  const undone = await deps.em.nativeDelete(WebhookDelivery, {
    id: deliveryId,
    status: 'pending',
    attempts: 0,
  });
  if (undone === 0) return;
  throw new DependencyUnavailableError(
    'temporal',
    'The delivery service is unreachable; try again later',
    TEMPORAL_RETRY_AFTER_SECONDS,
    outcome.error,
  );
}

/** `POST /me/webhooks/:id/test`: a `ping` with its own envelope id. */
export async function sendTestPing(deps: DeliveryServiceDeps, actor: Actor, input: WebhookIdInput) {
  const { userId } = actor;
  const webhook = await ownedWebhook(deps.em, actor, input.id);
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
  await startDelivery(deps, deliveryId, { userId, webhookId: webhook.id });
  return { delivery_id: deliveryId };
}

/**
 * A new delivery of the same envelope (same `id`, so a receiver that already processed it
 * dedupes it), with its own history. The original delivery is left as it was.
 */
export async function redeliver(deps: DeliveryServiceDeps, actor: Actor, input: DeliveryIdInput) {
  const { webhook, delivery: original } = await ownedDelivery(deps.em, actor, input);
  const newId = await insertDelivery(deps.em, {
    webhookId: webhook.id,
    event: original.event,
    payload: original.payload,
  });
  await startDelivery(deps, newId, { userId: actor.userId, webhookId: webhook.id });
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
      started_at: attempt.startedAt,
      status_code: attempt.statusCode,
      duration_ms: attempt.durationMs,
      error: attempt.error,
    })),
    created_at: delivery.createdAt,
    completed_at: delivery.completedAt,
  };
}

/** A subscription's deliveries, newest first, each with its attempts in order. */
export async function listDeliveries(
  deps: Pick<WebhookDeps, 'db' | 'cursors'>,
  actor: Actor,
  request: DeliveryListInput,
): Promise<{ items: PublicDelivery[]; nextCursor: string | null }> {
  const webhookId = request.id;
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
    await assertOwnedWebhook(deps.db, actor, webhookId);
    throw error;
  }
  const deliveries = await ownedDeliveryPage(deps.db, actor, webhookId, page);
  const { items, nextCursor } = page.page(deliveries);
  return { items: items.map(publicDelivery), nextCursor };
}
