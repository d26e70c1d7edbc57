import { Agent } from '../../../shared/db/entities';
import type { Tier } from '../../../shared/db/entities/subscription';
import type { EntityManager } from '../../../shared/db/orm';
import { sqlOf, statement } from '../../../shared/db/sql';
import { featuresOf } from '../../../shared/domain/tiers';
import { AppError } from '../../../shared/errors';
import { entitledTierSql } from '../../../shared/subscriptions/entitlements';
import type { Actor } from '../../access/actor';
import { looksLikeSlug } from '../../wire';
import { hasActiveSubscription } from './charges';

/**
 * Who may see an agent. Published: everyone. Unpublished after having been published: hidden
 * from new callers at once, but callers who already used it (a succeeded call or a
 * subscription) keep it until `listedUntil`, the end of the month (spec "States"), and a
 * subscriber keeps it until the end of the period already paid. Never
 * published (a draft, no monetization yet): the owner only. The owner always sees their own.
 * Every lookup here takes `(em, actor, slug)`.
 */

export function agentNotFound(slug: string): AppError {
  return new AppError('agent_not_found', `Agent ${slug.slice(0, 128)} does not exist`);
}

async function findBySlug(em: EntityManager, slug: string): Promise<Agent | null> {
  return looksLikeSlug(slug) ? em.findOne(Agent, { slug }) : null;
}

/** An agent as a caller may see it, and the tier whose features that caller has now. */
export interface CallerAgent {
  agent: Agent;
  /** The caller's entitled tier (null: none, or anonymous), read with the agent. */
  callerTier: Tier | null;
}

/**
 * The agents row as stored (its columns under their own names, for `em.map`) and the
 * caller's entitled tier.
 */
type AgentWithTierRow = Record<string, unknown> & { callerTier: Tier | null };

/**
 * The agent row and the caller's entitled tier in one statement (`entitledTierSql`), so the
 * premium gate costs the invoke path no extra round trip. The row is hydrated as the
 * EntityManager would have loaded it.
 */
const agentWithCallerTier = statement<AgentWithTierRow, [slug: string, callerId: number | null]>(
  'marketplace.agent_with_caller_tier',
  `select a.*, ${entitledTierSql('$2::int')} as "callerTier"
     from agents a where a.slug = $1`,
);

async function findWithCallerTier(
  em: EntityManager,
  slug: string,
  callerId: number | null,
): Promise<CallerAgent | null> {
  if (!looksLikeSlug(slug)) return null;
  const row = await sqlOf(em).row(agentWithCallerTier, [slug, callerId]);
  if (!row) return null;
  const { callerTier, ...columns } = row;
  return { agent: em.map(Agent, columns), callerTier };
}

/**
 * The agent as the actor (null when anonymous) may see it at `now`, with the caller's tier;
 * else 404.
 */
export async function visibleAgent(
  em: EntityManager,
  actor: Actor | null,
  slug: string,
  now = new Date(),
): Promise<CallerAgent> {
  const callerId = actor?.userId ?? null;
  const found = await findWithCallerTier(em, slug, callerId);
  if (!found) throw agentNotFound(slug);
  const { agent } = found;
  if (callerId !== null && agent.owner.id === callerId) return found;
  if (agent.isPublished) return found;
  if (agent.monetization == null || callerId === null) throw agentNotFound(slug);
  const stillListed = agent.listedUntil != null && agent.listedUntil > now;
  if (stillListed && (await isExistingCaller(em, agent.id, callerId))) return found;
  // A subscription already paid runs to its end, even past the listing's removal.
  if (await hasActiveSubscription(em, agent.id, callerId, now)) return found;
  throw agentNotFound(slug);
}

/**
 * The premium gate (docs/spec/contract.md §11 `premiumAgents`): a premium agent may be called (or
 * subscribed to) only by callers whose tier has `premiumAgents` (pro, max). Its owner always
 * may: it is their own runtime, and they must be able to try it before anyone pays for it.
 * Checked after visibility (a hidden agent stays a 404) and before anything is priced,
 * reserved, charged or sent.
 */
export function checkPremiumAccess(found: CallerAgent, actor: Actor): void {
  const { agent, callerTier } = found;
  if (!agent.premium || agent.owner.id === actor.userId) return;
  if (featuresOf(callerTier).premiumAgents) return;
  throw new AppError(
    'feature_not_in_tier',
    `${agent.slug}: is a premium agent, for callers with the pro tier or higher ` +
      `(your tier: ${callerTier ?? 'none'}; GET /me/subscription)`,
  );
}

/** Whether the caller has used the agent before. */
interface ExistingRow {
  existing: boolean;
}

const existingCaller = statement<ExistingRow, [agentId: string, callerId: number]>(
  'marketplace.existing_caller',
  `select exists (select 1 from agent_calls
                   where agent_id = $1 and caller_id = $2 and status = 'succeeded')
       or exists (select 1 from agent_subscriptions
                   where agent_id = $1 and subscriber_id = $2) as existing`,
);

/** A caller who has used the agent before: a succeeded call, or a subscription (even expired). */
export async function isExistingCaller(
  em: EntityManager,
  agentId: string,
  callerId: number,
): Promise<boolean> {
  const row = await sqlOf(em).row(existingCaller, [agentId, callerId]);
  return row?.existing === true;
}

/** The agent for an owner route: an unknown slug is 404, another user's agent 403. */
export async function ownedAgent(em: EntityManager, actor: Actor, slug: string): Promise<Agent> {
  const agent = await findBySlug(em, slug);
  if (!agent) throw agentNotFound(slug);
  if (agent.owner.id !== actor.userId) {
    throw new AppError('not_owner', `Agent ${agent.slug} belongs to another user`);
  }
  return agent;
}
