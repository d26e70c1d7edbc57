import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';

/** Webhook event names (spec "Webhook events"). */
export type WebhookEventName =
  | 'project.completed'
  | 'project.failed'
  | 'payment.received'
  | 'subscription.granted'
  | 'agent.published'
  | 'flow.balance.low'
  | 'payout.sent'
  | 'payout.failed';

export interface OutboxEventInput {
  userId: number;
  event: WebhookEventName;
  data: Record<string, unknown>;
  /** Deterministic per cause (e.g. `project.completed:<runId>`), so a retried writer is a no-op. */
  dedupeKey: string;
}

/**
 * Records a webhook event for delivery. Call it with the transaction's EntityManager that
 * makes the state change, so the event exists if and only if the change committed.
 */
export async function enqueueOutboxEvent(
  em: EntityManager,
  input: OutboxEventInput,
): Promise<void> {
  await em.execute(
    `insert into outbox_events (id, user_id, event, data, dedupe_key, created_at)
     values (?, ?, ?, ?::jsonb, ?, now())
     on conflict (dedupe_key) do nothing`,
    [randomUUID(), input.userId, input.event, JSON.stringify(input.data), input.dedupeKey],
  );
}
