import type { WebhookEventName } from '../outbox/outbox';

/**
 * The canonical webhook event catalog (spec "Webhook events"), served by
 * `GET /me/webhooks/events`. A subscription with `events: []` receives all of them, including
 * ones added here later. `ping` is not in it: it is sent only by `POST /me/webhooks/:id/test`.
 */
export const WEBHOOK_EVENTS: readonly WebhookEventName[] = [
  'project.completed',
  'project.failed',
  'project.approval_requested',
  'project.approval_resolved',
  'payment.received',
  'subscription.granted',
  'agent.published',
  'flow.balance.low',
  'token.launched',
  'token.graduated',
  'token.failed',
  'payout.sent',
  'payout.failed',
];

/** The event of `POST /me/webhooks/:id/test`. */
export const PING_EVENT = 'ping';

/** Per attempt (issue: 10 s timeout, response body never stored beyond 1 KB). */
export const DELIVERY_TIMEOUT_MS = 10_000;
export const DELIVERY_BODY_LIMIT_BYTES = 1024;
