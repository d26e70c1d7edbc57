import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { Config } from '../../../shared/config';
import { Webhook } from '../../../shared/db/entities';
import type { EntityManager } from '../../../shared/db/orm';
import type { SqlReader } from '../../../shared/db/sql';
import { generateSigningSecret } from '../../../shared/domain/signature';
import { AppError } from '../../../shared/errors';
import { checkOutboundUrl } from '../../../shared/net/outbound-url';
import { liveWebhooks, type WebhookRow } from './queries';
import {
  MAX_WEBHOOKS_PER_USER,
  type CreateWebhookInput,
  type createdWebhookSchema,
  type webhookSchema,
} from './schemas';

/** Webhook subscriptions (docs/spec/contract.md §7). Every function acts for one user and checks ownership. */

export interface WebhookServiceDeps {
  em: EntityManager;
  config: Pick<Config, 'webhookAllowedHosts'>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

export function webhookNotFound(id: string): AppError {
  return new AppError('webhook_not_found', `webhook ${id.slice(0, 64)} does not exist`);
}

export function publicWebhook(webhook: WebhookRow): z.infer<typeof webhookSchema> {
  const last = webhook.lastError;
  return {
    id: webhook.id,
    url: webhook.url,
    events: webhook.events,
    created_at: webhook.createdAt,
    last_error: last
      ? { at: last.at, delivery_id: last.deliveryId, status: last.status, error: last.error }
      : null,
  };
}

/** The caller's live subscription with this id; another user's, a deleted one or none: 404. */
export async function ownedWebhook(em: EntityManager, userId: number, id: string) {
  const webhook = isUuid(id)
    ? await em.findOne(Webhook, { id, user: userId, deletedAt: null })
    : null;
  if (!webhook) throw webhookNotFound(id);
  return webhook;
}

/** Serialises creation per user (the row lock on the user) and enforces the subscription cap. */
async function lockUserForNewWebhook(em: EntityManager, userId: number): Promise<void> {
  await em.execute('select id from users where id = ? for update', [userId]);
  const [row] = await em.execute<{ count: string }[]>(
    'select count(*) as count from webhooks where user_id = ? and deleted_at is null',
    [userId],
  );
  if (Number(row?.count ?? 0) >= MAX_WEBHOOKS_PER_USER) {
    throw new AppError(
      'webhook_limit_reached',
      `A user can hold at most ${MAX_WEBHOOKS_PER_USER} webhooks; delete one first`,
    );
  }
}

export async function createWebhook(
  deps: WebhookServiceDeps,
  userId: number,
  input: CreateWebhookInput,
): Promise<z.infer<typeof createdWebhookSchema>> {
  // Checked (DNS included) before the transaction, so no lock is held while resolving.
  const url = await checkOutboundUrl(
    input.url,
    { allowedHosts: deps.config.webhookAllowedHosts },
    'url',
  );
  return deps.em.transactional(async (em) => {
    await lockUserForNewWebhook(em, userId);
    const webhook = em.create(Webhook, {
      id: randomUUID(),
      user: userId,
      url: url.href,
      events: input.events,
      secret: generateSigningSecret(),
      lastError: null,
      createdAt: new Date(),
      deletedAt: null,
    });
    await em.flush();
    const created = {
      id: webhook.id,
      url: webhook.url,
      events: webhook.events,
      createdAt: webhook.createdAt.toISOString(),
      lastError: null,
    };
    return { webhook: { ...publicWebhook(created), secret: webhook.secret } };
  });
}

/** The reads: prepared statements, no entities. */
export interface WebhookReadDeps {
  db: SqlReader;
}

export async function listWebhooks(deps: WebhookReadDeps, userId: number) {
  const webhooks = await deps.db.rows(liveWebhooks, [userId]);
  return { items: webhooks.map((webhook) => publicWebhook(webhook)) };
}

/** Soft delete: deliveries keep their history; pending ones find the subscription gone. */
export async function deleteWebhook(em: EntityManager, userId: number, id: string) {
  const deleted = isUuid(id)
    ? await em.nativeUpdate(
        Webhook,
        { id, user: userId, deletedAt: null },
        { deletedAt: new Date() },
      )
    : 0;
  if (deleted === 0) throw webhookNotFound(id);
}
