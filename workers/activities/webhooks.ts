import type { MikroORM } from '@mikro-orm/postgresql';
import { Context } from '@temporalio/activity';
import {
  WorkflowExecutionAlreadyStartedError,
  WorkflowIdReusePolicy,
  type Client,
} from '@temporalio/client';
import { mainTaskQueue, workflowIds, workflowTypes } from '../../shared/temporal';
import type { Config } from '../../shared/config';
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

/** Webhook activities: the outbox dispatcher's steps and one delivery attempt. */
export function createWebhookActivities(deps: { orm: MikroORM; config: Config; temporal: Client }) {
  // One pooled client per worker process; SSRF is checked where each socket connects.
  const outbound = createOutboundClient({
    allowedHosts: deps.config.webhookAllowedHosts,
    timeoutMs: DELIVERY_TIMEOUT_MS,
    maxResponseBytes: DELIVERY_BODY_LIMIT_BYTES,
    onLargeBody: 'truncate',
  });

  return {
    /** Creates the deliveries of undispatched outbox rows; see `dispatchOutbox`. */
    async dispatchOutbox(): Promise<OutboxBatch> {
      return dispatchOutbox(deps.orm.em.fork());
    },

    /**
     * Starts each delivery's `webhook-delivery:<id>` workflow. Started here rather than as
     * child workflows, so the dispatcher's history does not grow with every delivery (which
     * made the single dispatcher the bottleneck). Ids are business ids: a delivery whose
     * workflow runs or completed is not started again; only a failed run may be.
     */
    async startDeliveryWorkflows(input: { deliveryIds: string[] }): Promise<void> {
      const taskQueue = mainTaskQueue(deps.config.temporal.taskQueue);
      await Promise.all(
        input.deliveryIds.map(async (deliveryId) => {
          try {
            await deps.temporal.workflow.start(workflowTypes.webhookDelivery, {
              workflowId: workflowIds.webhookDelivery(deliveryId),
              taskQueue,
              args: [{ deliveryId }],
              workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE_FAILED_ONLY,
            });
          } catch (error) {
            if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
          }
        }),
      );
    },

    /** Called after the deliveries' workflows were started; idempotent. */
    async markOutboxDispatched(input: { outboxEventIds: string[] }): Promise<void> {
      await markOutboxDispatched(deps.orm.em.fork(), input.outboxEventIds);
    },

    /** One POST of a delivery, heartbeating while the receiver takes its time. */
    async attemptDelivery(input: AttemptInput): Promise<AttemptResult> {
      const context = Context.current();
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
