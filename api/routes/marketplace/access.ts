import { Agent } from '../../../shared/db/entities';
import type { Tier } from '../../../shared/db/entities/subscription';
import type { EntityManager } from '../../../shared/db/orm';
import { sqlOf, statement } from '../../../shared/db/sql';
import { featuresOf } from '../../../shared/domain/tiers';
import { AppError } from '../../../shared/errors';
import { entitledTierSql } from '../../../shared/subscriptions/entitlements';
import type { Actor } from '../../access/actor';
import { looksLikeSlug } from '../../wire';

/**
 * Who may touch an agent: its owner (`agentOwnedBySql` in SQL, `ownsAgent` for a loaded
 * agent, `ownedAgent` for owner routes) and who may see it (`agentVisibleSql`, the one
 * definition of visibility: `visibleAgent` and the detail read both run it). Every lookup here
 * takes `(em, actor, slug)`.
 */

export function agentNotFound(slug: string): AppError {
  return new AppError('agent_not_found', `Agent ${slug.slice(0, 128)} does not exist`);
}

/** The SQL condition "the agent `agent` (a table alias) belongs to the user id `userId`". */
export function agentOwnedBySql(agent: string, userId: string): string {
  return `${agent}.owner_id = ${userId}`;
}

/** Whether the actor owns the (loaded) agent. */
export function ownsAgent(agent: Agent, actor: Actor | null): boolean {
  return actor !== null && agent.owner.id === actor.userId;
}

/**
 * The visibility rule, as the SQL condition "the caller may see the agent at `now`" over the
 * agents row `agent` (a table alias), the caller's user id `callerId` (null when anonymous)
 * and the time `now`, each an SQL expression: typed placeholders such as `$2::int` and
 * `$3::timestamptz`, or columns. Its subqueries use the aliases `c` and `u`.
 *
 * - The owner always sees their own agent.
 * - Published: everyone.
 * - Unpublished after having been published: hidden from new callers at once, but callers who
 *   already used it (a succeeded call or a subscription, even expired) keep it until
 *   `listedUntil`, the end of the month (spec "States"), and a subscriber keeps it until the
 *   end of the period already paid, even past `listedUntil`.
 * - Never published (a draft, no monetization yet): the owner only.
 */
export function agentVisibleSql(agent: string, callerId: string, now: string): string {
  const subscribed = `select 1 from agent_subscriptions u
                       where u.agent_id = ${agent}.id and u.subscriber_id = ${callerId}`;
  return `(${agentOwnedBySql(agent, callerId)}
     or ${agent}.is_published
     or (${agent}.monetization is not null and ${callerId} is not null
         and ((${agent}.listed_until > ${now}
               and (exists (select 1 from agent_calls c
                             where c.agent_id = ${agent}.id and c.caller_id = ${callerId}
                               and c.status = 'succeeded')
                    or exists (${subscribed})))
              or exists (${subscribed} and u.period_end > ${now}))))`;
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
type VisibleAgentRow = Record<string, unknown> & { callerTier: Tier | null };

/**
 * The agent `slug` when the caller may see it at `now` (`agentVisibleSql`), with the caller's
 * entitled tier (`entitledTierSql`): one statement, so neither visibility nor the premium gate
 * costs the invoke path an extra round trip. The row is hydrated as the EntityManager would
 * have loaded it.
 */
const visibleAgentStatement = statement<
  VisibleAgentRow,
  [slug: string, callerId: number | null, now: Date]
>(
  'marketplace.visible_agent',
  `select a.*, ${entitledTierSql('$2::int')} as "callerTier"
     from agents a
    where a.slug = $1 and ${agentVisibleSql('a', '$2::int', '$3::timestamptz')}`,
);

/**
 * The agent as the actor (null when anonymous) may see it at `now`, with the caller's tier;
 * else 404, the same for an agent hidden from the caller as for an unknown slug.
 */
export async function visibleAgent(
  em: EntityManager,
  actor: Actor | null,
  slug: string,
  now = new Date(),
): Promise<CallerAgent> {
  // A slug that cannot exist never reaches SQL (a NUL byte would be a protocol error there).
  const row = looksLikeSlug(slug)
    ? await sqlOf(em).row(visibleAgentStatement, [slug, actor?.userId ?? null, now])
    : undefined;
  if (!row) throw agentNotFound(slug);
  const { callerTier, ...columns } = row;
  return { agent: em.map(Agent, columns), callerTier };
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
  if (!agent.premium || ownsAgent(agent, actor)) return;
  if (featuresOf(callerTier).premiumAgents) return;
  throw new AppError(
    'feature_not_in_tier',
    `${agent.slug}: is a premium agent, for callers with the pro tier or higher ` +
      `(your tier: ${callerTier ?? 'none'}; GET /me/subscription)`,
  );
}

/** The agent for an owner route: an unknown slug is 404, another user's agent 403. */
export async function ownedAgent(em: EntityManager, actor: Actor, slug: string): Promise<Agent> {
  const agent = looksLikeSlug(slug) ? await em.findOne(Agent, { slug }) : null;
  if (!agent) throw agentNotFound(slug);
  if (!ownsAgent(agent, actor)) {
    throw new AppError('not_owner', `Agent ${agent.slug} belongs to another user`);
  }
  return agent;
}
