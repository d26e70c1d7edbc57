import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlOf, statement } from '../db/sql';

/** Webhook event names (spec "Webhook events"). */
export type WebhookEventName =
  | 'project.completed'
  | 'project.failed'
  | 'project.approval_requested'
  | 'project.approval_resolved'
  | 'payment.received'
  | 'subscription.granted'
  | 'agent.published'
  | 'flow.balance.low'
  | 'token.launched'
  | 'token.graduated'
  | 'token.failed'
  | 'payout.sent'
  | 'payout.failed';

export interface OutboxEventInput {
  userId: number;
  event: WebhookEventName;
  data: Record<string, unknown>;
  /** Deterministic per cause (e.g. `project.completed:<runId>`), so a retried writer is a no-op. */
  dedupeKey: string;
}

/** One outbox row; a second one with the same dedupe key is dropped. */
const insertOutboxEvent = statement<
  Record<string, never>,
  [id: string, userId: number, event: WebhookEventName, data: string, dedupeKey: string]
>(
  'outbox.insert_event',
  `insert into outbox_events (id, user_id, event, data, dedupe_key, created_at)
   values ($1, $2, $3, $4::jsonb, $5, now())
   on conflict (dedupe_key) do nothing`,
);

/**
 * Records a webhook event for delivery. Call it with the transaction's EntityManager that
 * makes the state change, so the event exists if and only if the change committed.
 */
export async function enqueueOutboxEvent(
  em: EntityManager,
  input: OutboxEventInput,
): Promise<void> {
  await sqlOf(em).run(insertOutboxEvent, [
    randomUUID(),
    input.userId,
    input.event,
    JSON.stringify(input.data),
    input.dedupeKey,
  ]);
}
