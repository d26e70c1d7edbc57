import type { MikroORM } from '@mikro-orm/postgresql';
import { Context } from '@temporalio/activity';
import {
  WorkflowExecutionAlreadyStartedError,
  WorkflowIdReusePolicy,
  type Client,
} from '@temporalio/client';
import { webhookTaskQueue, workflowIds, workflowTypes } from '../../shared/temporal';
import { ensureSearchAttributesRegistered } from '../../shared/temporal/search-attribute-registration';
import { searchAttributes } from '../../shared/temporal/search-attributes';
import type { Config } from '../../shared/config';
import { sqlOf, statement } from '../../shared/db/sql';
import { createOutboundClient } from '../../shared/net/outbound-client';
import { DELIVERY_BODY_LIMIT_BYTES, DELIVERY_TIMEOUT_MS } from '../../shared/webhooks/events';
import {
  attemptDelivery,
  type AttemptInput,
  type AttemptResult,
} from '../webhooks/attempt-delivery';
import {
  dispatchOutbox,
  markOutboxDispatched,
  type OutboxBatch,
} from '../webhooks/dispatch-outbox';

/** Often enough for the workflow's heartbeat timeout to notice a dead worker within seconds. */
const HEARTBEAT_EVERY_MS = 1000;

interface DeliveryOwner {
  id: string;
  webhookId: string;
  userId: number;
}

/** The subscription and user of each delivery (one uuid[] parameter). */
const deliveryOwnersOf = statement<DeliveryOwner, [deliveryIds: readonly string[]]>(
  'webhooks.delivery_owners',
  `select d.id, d.webhook_id as "webhookId", w.user_id as "userId" from webhook_deliveries d
     join webhooks w on w.id = d.webhook_id
    where d.id = any($1::uuid[])`,
);

/** Webhook activities: the outbox dispatcher's steps and one delivery attempt. */
export function createWebhookActivities(deps: { orm: MikroORM; config: Config; temporal: Client }) {
  // One pooled client per worker process; SSRF is checked where each socket connects.
  const outbound = createOutboundClient({
    allowedHosts: deps.config.webhookAllowedHosts,
    timeoutMs: DELIVERY_TIMEOUT_MS,
    maxResponseBytes: DELIVERY_BODY_LIMIT_BYTES,
    onLargeBody: 'truncate',
  });

  /**
   * Starts each delivery's `webhook-delivery:<id>` workflow, search attributes `UserId` and
   * `WebhookId` of its subscription. Started here rather than as child workflows, so the
   * dispatcher's history does not grow with every delivery (which made the single dispatcher the
   * bottleneck). Ids are business ids: a delivery whose workflow runs or completed is not
   * started again; only a failed run may be. A delivery gone meanwhile (its subscription
   * deleted) is started without attributes and ends at once, finding no row.
   */
  async function startDeliveryWorkflows(deliveryIds: readonly string[]): Promise<void> {
    if (deliveryIds.length === 0) return;
    const taskQueue = webhookTaskQueue(deps.config.temporal.taskQueue);
    const owners = await deliveryOwners(deliveryIds);
    await ensureSearchAttributesRegistered(deps.temporal);
    await Promise.all(
      deliveryIds.map(async (deliveryId) => {
        try {
          await deps.temporal.workflow.start(workflowTypes.webhookDelivery, {
            workflowId: workflowIds.webhookDelivery(deliveryId),
            taskQueue,
            args: [{ deliveryId }],
            workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE_FAILED_ONLY,
            typedSearchAttributes: searchAttributes(owners.get(deliveryId) ?? {}),
          });
        } catch (error) {
          if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
        }
      }),
    );
  }

  /** The subscription and user of each delivery, for its workflow's search attributes. */
  async function deliveryOwners(
    deliveryIds: readonly string[],
  ): Promise<Map<string, { userId: number; webhookId: string }>> {
    const rows = await sqlOf(deps.orm.em.fork()).rows(deliveryOwnersOf, [deliveryIds]);
    return new Map(rows.map((row) => [row.id, { userId: row.userId, webhookId: row.webhookId }]));
  }

  return {
    /**
     * One dispatcher poll: create the deliveries of undispatched outbox rows, start their
     * workflows, and only then mark the rows dispatched. A crash anywhere in between leaves
     * the rows undispatched, and the retried poll finds the same deliveries (see
     * `dispatchOutbox`) and starts what is missing.
     */
    async dispatchOutboxBatch(): Promise<{ events: number; deliveries: number }> {
      const batch = await dispatchOutbox(deps.orm.em.fork());
      await startDeliveryWorkflows(batch.deliveryIds);
      await markOutboxDispatched(deps.orm.em.fork(), batch.outboxEventIds);
      return { events: batch.outboxEventIds.length, deliveries: batch.deliveryIds.length };
    },

    // The poll's three steps as separate activities: only dispatcher runs started before the
    // `single-step-dispatch` patch call them. Remove with that patch's deprecatePatch.
    async dispatchOutbox(): Promise<OutboxBatch> {
      return dispatchOutbox(deps.orm.em.fork());
    },
    async startDeliveryWorkflows(input: { deliveryIds: string[] }): Promise<void> {
      await startDeliveryWorkflows(input.deliveryIds);
    },
    async markOutboxDispatched(input: { outboxEventIds: string[] }): Promise<void> {
      await markOutboxDispatched(deps.orm.em.fork(), input.outboxEventIds);
    },

    /**
     * One POST of a delivery. A local activity (the delivery workflow's way since
     * `local-delivery-attempts`) cannot heartbeat; a regular one, as deliveries started before
     * that patch run it, heartbeats while the receiver takes its time.
     */
    async attemptDelivery(input: AttemptInput): Promise<AttemptResult> {
      const context = Context.current();
      if (context.info.isLocal) return attemptDelivery({ orm: deps.orm, outbound }, input);
      const beat = setInterval(() => context.heartbeat(), HEARTBEAT_EVERY_MS);
      try {
        return await attemptDelivery({ orm: deps.orm, outbound }, input);
      } finally {
        clearInterval(beat);
      }
    },
  };
}

export type WebhookActivities = ReturnType<typeof createWebhookActivities>;
