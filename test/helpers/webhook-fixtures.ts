import { randomBytes, randomUUID } from 'node:crypto';
import type { TestContext } from './context';

/**
 * Rows the webhook tests (and the history recorder) start from, written with plain SQL so a
 * test of the dispatcher or a delivery does not depend on the API that normally creates them.
 */

export async function insertUser(ctx: TestContext): Promise<number> {
  const [user] = await ctx.sql<{ id: number }>(
    `insert into users (address, created_at) values ($1, now()) returning id`,
    [`0x${randomBytes(20).toString('hex')}`],
  );
  return user!.id;
}

export interface WebhookRow {
  id: string;
  secret: string;
}

/** A subscription of `userId` to `url`; `events: []` is every event. */
export async function insertWebhook(
  ctx: TestContext,
  userId: number,
  url: string,
  options: { events?: string[]; deleted?: boolean } = {},
): Promise<WebhookRow> {
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const [row] = await ctx.sql<{ id: string }>(
    `insert into webhooks (id, user_id, url, events, secret, created_at, deleted_at)
     values (gen_random_uuid(), $1, $2, $3, $4, now(), case when $5 then now() end) returning id`,
    [userId, url, options.events ?? [], secret, options.deleted ?? false],
  );
  return { id: row!.id, secret };
}

export interface Envelope {
  id: string;
  event: string;
  user_id: number;
  created_at: string;
  data: unknown;
}

export function envelopeOf(userId: number, data: unknown, event = 'project.completed'): Envelope {
  return { id: randomUUID(), event, user_id: userId, created_at: new Date().toISOString(), data };
}

/** A pending delivery of `envelope` to the subscription, as the dispatcher would insert it. */
export async function insertDelivery(
  ctx: TestContext,
  webhookId: string,
  envelope: Envelope,
): Promise<string> {
  const id = randomUUID();
  await ctx.sql(
    `insert into webhook_deliveries (id, webhook_id, event, payload, status, attempts, created_at)
     values ($1, $2, $3, $4::jsonb, 'pending', 0, now())`,
    [id, webhookId, envelope.event, JSON.stringify(envelope)],
  );
  return id;
}
