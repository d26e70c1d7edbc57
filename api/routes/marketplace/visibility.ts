import { Agent } from '../../../shared/db/entities';
import type { EntityManager } from '../../../shared/db/orm';
import { AppError } from '../../../shared/errors';
import { looksLikeSlug } from '../../wire';
import { hasActiveSubscription } from './charges';

/**
 * Who may see an agent. Published: everyone. Unpublished after having been published: hidden
 * from new callers at once, but callers who already used it (a succeeded call or a
 * subscription) keep it until `listedUntil`, the end of the month (spec "States"), and a
 * subscriber keeps it until the end of the period already paid. Never
 * published (a draft, no monetization yet): the owner only. The owner always sees their own.
 */

export function agentNotFound(slug: string): AppError {
  return new AppError('agent_not_found', `Agent ${slug.slice(0, 128)} does not exist`);
}

async function findBySlug(em: EntityManager, slug: string): Promise<Agent | null> {
  return looksLikeSlug(slug) ? em.findOne(Agent, { slug }) : null;
}

/** The agent as `callerId` (null when anonymous) may see it at `now`; else 404. */
export async function agentForCaller(
  em: EntityManager,
  slug: string,
  callerId: number | null,
  now: Date,
): Promise<Agent> {
  const agent = await findBySlug(em, slug);
  if (!agent) throw agentNotFound(slug);
  if (callerId !== null && agent.owner.id === callerId) return agent;
  if (agent.isPublished) return agent;
  if (agent.monetization == null || callerId === null) throw agentNotFound(slug);
  const stillListed = agent.listedUntil != null && agent.listedUntil > now;
  if (stillListed && (await isExistingCaller(em, agent.id, callerId))) return agent;
  // A subscription already paid runs to its end, even past the listing's removal.
  if (await hasActiveSubscription(em, agent.id, callerId, now)) return agent;
  throw agentNotFound(slug);
}

/** A caller who has used the agent before: a succeeded call, or a subscription (even expired). */
export async function isExistingCaller(
  em: EntityManager,
  agentId: string,
  callerId: number,
): Promise<boolean> {
  const [row] = await em.execute<{ existing: boolean }[]>(
    `select exists (select 1 from agent_calls
                     where agent_id = ? and caller_id = ? and status = 'succeeded')
         or exists (select 1 from agent_subscriptions
                     where agent_id = ? and subscriber_id = ?) as existing`,
    [agentId, callerId, agentId, callerId],
  );
  return row?.existing === true;
}

/** The agent for an owner route: an unknown slug is 404, another user's agent 403. */
export async function ownedAgent(em: EntityManager, slug: string, userId: number): Promise<Agent> {
  const agent = await findBySlug(em, slug);
  if (!agent) throw agentNotFound(slug);
  if (agent.owner.id !== userId) {
    throw new AppError('not_owner', `Agent ${agent.slug} belongs to another user`);
  }
  return agent;
}
