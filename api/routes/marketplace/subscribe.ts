import { flowNumber } from '../../../shared/domain/flow';
import { addUtcMonths } from '../../../shared/domain/calendar';
import { AppError } from '../../../shared/errors';
import type { Actor } from '../../access/actor';
import { checkPremiumAccess, visibleAgent } from './access';
import { paySubscription } from './charges';
import type { InvokeDeps } from './invoke';
import type { AgentSlugInput } from './schemas';

/**
 * `POST /agents/:slug/subscribe` (docs/spec/contract.md §6): a month of an agent's
 * subscription, paid from the caller's FLOW, extending an active one. The API key's spend cap
 * is reserved first and settled after the payment, as for a paid call.
 */
export async function subscribeToAgent(
  deps: Pick<InvokeDeps, 'em' | 'lowBalanceThreshold' | 'reserveSpend' | 'settleSpend'>,
  actor: Actor,
  input: AgentSlugInput,
) {
  const now = new Date();
  const found = await visibleAgent(deps.em, actor, input.slug, now);
  const { agent } = found;
  if (!agent.isPublished) {
    throw new AppError('agent_not_published', `${agent.slug}: is not published`);
  }
  if (agent.monetization !== 'subscription' && agent.monetization !== 'hybrid') {
    throw new AppError(
      'subscription_not_offered',
      `${agent.slug}: is priced ${agent.monetization ?? 'not at all'}, without subscriptions`,
    );
  }
  // A month of an agent the caller may not call would be paid for nothing.
  checkPremiumAccess(found, actor);
  const price = BigInt(agent.subscriptionPrice ?? 0);
  await deps.reserveSpend(price);
  const subscription = await paySubscription(deps.em, {
    agent,
    subscriberId: actor.userId,
    price,
    periodEnd: (currentEnd) => addUtcMonths(currentEnd ?? now, 1),
    now,
    lowBalanceThreshold: deps.lowBalanceThreshold,
  });
  await deps.settleSpend(price);
  return {
    agentSlug: agent.slug,
    subscribed: true as const,
    periodStart: subscription.periodStart.toISOString(),
    periodEnd: subscription.periodEnd.toISOString(),
    costFlow: flowNumber(price),
  };
}
