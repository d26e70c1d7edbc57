import { flowNumber } from '../../../shared/domain/flow';
import { addUtcMonths } from '../../../shared/domain/calendar';
import { AppError } from '../../../shared/errors';
import type { Actor } from '../../access/actor';
import { checkPremiumAccess, visibleAgent } from './access';
import { paySubscription } from './charges';
import { noteSpendMoved, type Charged, type InvokeDeps } from './invoke';
import type { AgentSlugInput, SubscriptionResult } from './schemas';

/**
 * `POST /agents/:slug/subscribe` (docs/spec/contract.md §6): a month of an agent's
 * subscription, paid from the caller's FLOW, extending an active one. The price counts toward
 * the API key's spend cap in the same transaction as the payment, as a paid call's does.
 */
export async function subscribeToAgent(
  deps: Pick<InvokeDeps, 'em' | 'lowBalanceThreshold' | 'keySpendMoved' | 'onLateError'>,
  actor: Actor,
  input: AgentSlugInput,
): Promise<Charged<SubscriptionResult>> {
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
  const key = actor.apiKey;
  const subscription = await paySubscription(deps.em, {
    agent,
    subscriberId: actor.userId,
    apiKeyId: key?.id ?? null,
    price,
    periodEnd: (currentEnd) => addUtcMonths(currentEnd ?? now, 1),
    now,
    lowBalanceThreshold: deps.lowBalanceThreshold,
  });
  if (key && price > 0n) await noteSpendMoved(deps, key);
  return {
    body: {
      agentSlug: agent.slug,
      subscribed: true as const,
      periodStart: subscription.periodStart.toISOString(),
      periodEnd: subscription.periodEnd.toISOString(),
      costFlow: flowNumber(price),
    },
    keyCharge: subscription.spend ? { cost: price, spend: subscription.spend } : null,
  };
}
