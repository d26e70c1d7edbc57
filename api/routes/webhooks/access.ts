import { Webhook, WebhookDelivery } from '../../../shared/db/entities';
import type { EntityManager } from '../../../shared/db/orm';
import type { Sql } from '../../../shared/db/sql';
import { AppError } from '../../../shared/errors';
import type { Actor } from '../../access/actor';
import { isUuid } from '../../wire';
import { deliveryPage, ownedWebhookId, type DeliveryRow } from './queries';

/**
 * Whose subscription is whose (docs/spec/contract.md §7): a webhook exists only for its owner.
 * Another user's id, a deleted subscription, a malformed id and an unknown id are the same 404.
 * Every lookup by a subscription id goes through here: `(em or db, actor, id)`.
 */

export function webhookNotFound(id: string): AppError {
  return new AppError('webhook_not_found', `webhook ${id.slice(0, 64)} does not exist`);
}

/** The caller's live subscription with this id; another user's, a deleted one or none: 404. */
export async function ownedWebhook(em: EntityManager, actor: Actor, id: string) {
  const webhook = isUuid(id)
    ? await em.findOne(Webhook, { id, user: actor.userId, deletedAt: null })
    : null;
  if (!webhook) throw webhookNotFound(id);
  return webhook;
}

/** A delivery of the caller's subscription `id` (404 `webhook_not_found` first, as above). */
export async function ownedDelivery(
  em: EntityManager,
  actor: Actor,
  ids: { id: string; deliveryId: string },
) {
  const webhook = await ownedWebhook(em, actor, ids.id);
  const { deliveryId } = ids;
  const delivery = isUuid(deliveryId)
    ? await em.findOne(WebhookDelivery, { id: deliveryId, webhook: webhook.id })
    : null;
  if (!delivery) {
    throw new AppError('delivery_not_found', `delivery ${deliveryId.slice(0, 64)} does not exist`);
  }
  return { webhook, delivery };
}

/** `ownedWebhook` on the read pool, without the entity: the caller's live subscription or 404. */
export async function assertOwnedWebhook(db: Sql, actor: Actor, id: string): Promise<void> {
  const owned = isUuid(id) ? await db.row(ownedWebhookId, [id, actor.userId]) : undefined;
  if (!owned) throw webhookNotFound(id);
}

/**
 * A page of the caller's subscription's deliveries, in one statement that checks the owner
 * (`deliveryPage`): no row at all is another user's, a deleted or an unknown subscription, 404.
 */
export async function ownedDeliveryPage(
  db: Sql,
  actor: Actor,
  id: string,
  page: { after: readonly string[]; fetch: number },
): Promise<DeliveryRow[]> {
  const rows = isUuid(id)
    ? await db.rows(deliveryPage, [id, actor.userId, ...page.after, page.fetch])
    : [];
  if (rows.length === 0) throw webhookNotFound(id);
  return rows.filter((row): row is DeliveryRow => row.id !== null);
}
