import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { z } from 'zod';
import type { Config } from '../../../shared/config';
import { Webhook } from '../../../shared/db/entities';
import type { EntityManager } from '../../../shared/db/orm';
import { statement, type Sql } from '../../../shared/db/sql';
import { countForUser, lockUserAndCheckCap } from '../../../shared/db/user-cap';
import type { CursorCodec } from '../../../shared/domain/cursor';
import { generateSigningSecret } from '../../../shared/domain/signature';
import { AppError } from '../../../shared/errors';
import { checkOutboundUrl } from '../../../shared/net/outbound-url';
import { WEBHOOK_EVENTS } from '../../../shared/webhooks/events';
import type { Actor } from '../../access/actor';
import { ownedWebhook, webhookNotFound } from './access';
import { liveWebhooks, type WebhookRow } from './queries';
import {
  MAX_WEBHOOKS_PER_USER,
  type CreateWebhookInput,
  type createdWebhookSchema,
  type WebhookIdInput,
  type webhookSchema,
} from './schemas';

/**
 * Webhook subscriptions (docs/spec/contract.md §7). Every function acts for one user and
 * checks ownership (`access.ts`); the deliveries started by hand are in `deliveries.ts`.
 */

export interface WebhookDeps {
  /** Writes: the request's EntityManager. */
  em: EntityManager;
  /** Reads: prepared statements, no entities. */
  db: Sql;
  cursors: CursorCodec;
  config: Pick<Config, 'webhookAllowedHosts' | 'temporal'>;
  temporal: Client;
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

/** The user's live subscriptions, counted against the cap. */
const liveWebhookCount = statement<{ count: number }, [userId: number]>(
  'webhooks.live_count',
  'select count(*)::int as count from webhooks where user_id = $1 and deleted_at is null',
);

/** Serialises creation per user (the row lock on the user) and enforces the subscription cap. */
function lockUserForNewWebhook(em: EntityManager, userId: number): Promise<void> {
  return lockUserAndCheckCap(em, userId, {
    count: (tx) => countForUser(tx, liveWebhookCount, userId),
    max: MAX_WEBHOOKS_PER_USER,
    refusal: () =>
      new AppError(
        'webhook_limit_reached',
        `A user can hold at most ${MAX_WEBHOOKS_PER_USER} webhooks; delete one first`,
      ),
  });
}

export async function createWebhook(
  deps: Pick<WebhookDeps, 'em' | 'config'>,
  actor: Actor,
  input: CreateWebhookInput,
): Promise<z.infer<typeof createdWebhookSchema>> {
  const { userId } = actor;
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

export async function listWebhooks(deps: Pick<WebhookDeps, 'db'>, actor: Actor) {
  const webhooks = await deps.db.rows(liveWebhooks, [actor.userId]);
  return { items: webhooks.map((webhook) => publicWebhook(webhook)) };
}

/** The canonical list of subscribable events: the same for every caller. */
export function listEvents(_deps: WebhookDeps, _actor: Actor) {
  return { events: [...WEBHOOK_EVENTS] };
}

/**
 * Soft delete: deliveries keep their history; pending ones find the subscription gone. Only a
 * live subscription is deleted, so of two concurrent deletes the second is a 404 too.
 */
export async function deleteWebhook(
  deps: Pick<WebhookDeps, 'em'>,
  actor: Actor,
  input: WebhookIdInput,
) {
  const webhook = await ownedWebhook(deps.em, actor, input.id);
  const deleted = await deps.em.nativeUpdate(
    Webhook,
    { id: webhook.id, deletedAt: null },
    { deletedAt: new Date() },
  );
  if (deleted === 0) throw webhookNotFound(input.id);
}
