import { randomUUID } from 'node:crypto';
import type { Agent } from '../../../shared/db/entities';
import type { EntityManager } from '../../../shared/db/orm';
import { epochMs, sqlOf, statement } from '../../../shared/db/sql';
import { flowNumber } from '../../../shared/domain/flow';
import { splitEarnings } from '../../../shared/domain/pricing';
import { AppError } from '../../../shared/errors';
import {
  creditHolderPool,
  creditUser,
  debitUser,
  settleHold,
  type Movement,
} from '../../../shared/flow/ledger';
import { utcDateString } from '../../../shared/domain/calendar';
import {
  reserveSpend,
  settleSpend,
  type SpendReservation,
  type SpendState,
} from '../../access/spend-guard';

/**
 * The database side of agent charges: quotas, subscriptions, settlement and call records.
 * Rows of agent_daily_stats are keyed by the UTC day. The marketplace figures themselves
 * (calls, median latency, rating) live in the read model `agent_market_stats`, kept by
 * database triggers (migration Migration20261125000000_marketplace_stats):
 * - callsLast30d: succeeded calls on the last 30 UTC days, today included (agent_daily_stats).
 * - p50LatencyMs: median latency of succeeded calls of the last 30 × 24 h, rounded; 0 when none.
 * - rating: the average rating rounded to 2 decimals, 0 when unrated; ratingCount beside it.
 */

function tokenIdOf(agent: Agent): string | null {
  const token = agent.token as { id: string } | string | null | undefined;
  if (!token) return null;
  return typeof token === 'string' ? token : token.id;
}

function ownerIdOf(agent: Agent): number {
  const owner = agent.owner as { id: number } | number;
  return typeof owner === 'number' ? owner : owner.id;
}

type NoRow = Record<string, never>;

/** A tool's price in micro-FLOW (int8 as text). */
interface ToolPriceRow {
  tool: string;
  price: string;
}

/** An agent's tool prices. */
const toolPrices = statement<ToolPriceRow, [agentId: string]>(
  'charges.tool_prices',
  'select tool, price from agent_tool_prices where agent_id = $1',
);

/** An agent's tool prices in exact micro-FLOW, for charging (`listing.ts` has the wire view). */
export async function toolPriceMicros(em: EntityManager, agentId: string) {
  const rows = await sqlOf(em).rows(toolPrices, [agentId]);
  return new Map(rows.map((row) => [row.tool, BigInt(row.price)]));
}

/** Whether the caller's subscription to the agent runs at `now`. */
interface ActiveRow {
  active: boolean;
}

const activeSubscription = statement<ActiveRow, [agentId: string, callerId: number, now: Date]>(
  'charges.active_subscription',
  `select exists (select 1 from agent_subscriptions
                   where agent_id = $1 and subscriber_id = $2 and period_end > $3) as active`,
);

export async function hasActiveSubscription(
  em: EntityManager,
  agentId: string,
  callerId: number,
  now: Date,
): Promise<boolean> {
  const row = await sqlOf(em).row(activeSubscription, [agentId, callerId, now]);
  return row?.active === true;
}

/** Today's free calls of the caller after taking one; no row when the quota is used up. */
interface FreeCallRow {
  used: number;
}

const takeFreeCall = statement<
  FreeCallRow,
  [agentId: string, callerId: number, day: string, quota: number]
>(
  'charges.take_free_call',
  `insert into agent_free_calls (agent_id, caller_id, day, used) values ($1, $2, $3, 1)
   on conflict (agent_id, caller_id, day)
   do update set used = agent_free_calls.used + 1 where agent_free_calls.used < $4
   returning used`,
);

/** Gives one of the day's free calls back. */
const giveFreeCallBack = statement<NoRow, [agentId: string, callerId: number, day: string]>(
  'charges.return_free_call',
  `update agent_free_calls set used = used - 1
   where agent_id = $1 and caller_id = $2 and day = $3 and used > 0`,
);

/** Takes one of today's free calls atomically; false when the quota is used up. */
export async function consumeFreeCall(
  em: EntityManager,
  agent: Agent,
  callerId: number,
  now: Date,
): Promise<boolean> {
  const quota = agent.freemiumDailyCalls ?? 0;
  if (quota <= 0) return false;
  const row = await sqlOf(em).row(takeFreeCall, [agent.id, callerId, utcDateString(now), quota]);
  return row !== undefined;
}

/** Gives a free call back (the call it was taken for failed). */
export async function returnFreeCall(
  em: EntityManager,
  agentId: string,
  callerId: number,
  now: Date,
): Promise<void> {
  await sqlOf(em).run(giveFreeCallBack, [agentId, callerId, utcDateString(now)]);
}

interface CallRecord {
  callId: string;
  agent: Agent;
  callerId: number;
  apiKeyId: string | null;
  latencyMs: number;
  now: Date;
}

/** A failed call: nothing charged, no tools, not free. */
const insertFailedCall = statement<
  NoRow,
  [
    id: string,
    agentId: string,
    callerId: number,
    apiKeyId: string | null,
    error: string,
    latencyMs: number,
    createdAt: Date,
  ]
>(
  'charges.insert_failed_call',
  `insert into agent_calls (id, agent_id, caller_id, api_key_id, status, error, latency_ms,
     cost, tools_used, free, created_at)
   values ($1, $2, $3, $4, 'failed', $5, $6, 0, '{}', false, $7)`,
);

export async function recordFailedCall(
  em: EntityManager,
  call: CallRecord & { error: string },
): Promise<void> {
  await sqlOf(em).run(insertFailedCall, [
    call.callId,
    call.agent.id,
    call.callerId,
    call.apiKeyId,
    call.error.slice(0, 500),
    call.latencyMs,
    call.now,
  ]);
}

/** Adds `calls` and `earnings` (micro-FLOW) to the agent's row of the UTC day. */
const addToDailyStats = statement<
  NoRow,
  [agentId: string, day: string, calls: number, earnings: bigint]
>(
  'charges.add_daily_stats',
  `insert into agent_daily_stats (agent_id, day, calls, earnings) values ($1, $2, $3, $4)
   on conflict (agent_id, day) do update set
     calls = agent_daily_stats.calls + excluded.calls,
     earnings = agent_daily_stats.earnings + excluded.earnings`,
);

/** Adds a billed amount (and optionally one call) to the agent's stats of the day. */
async function addDailyStats(
  em: EntityManager,
  agentId: string,
  now: Date,
  calls: number,
  earnings: bigint,
): Promise<void> {
  await sqlOf(em).run(addToDailyStats, [agentId, utcDateString(now), calls, earnings]);
}

/**
 * Pays an agent's owner and its token's holders out of an amount the caller has just been
 * debited (same transaction). Returns the split for the caller's ledger metadata.
 */
async function payEarnings(
  tx: EntityManager,
  agent: Agent,
  amount: bigint,
  move: Omit<Movement, 'metadata'>,
) {
  const tokenId = tokenIdOf(agent);
  const split = splitEarnings(amount, tokenId !== null);
  if (split.owner > 0n) {
    await creditUser(tx, ownerIdOf(agent), split.owner, {
      ...move,
      metadata: { role: 'creator', agentSlug: agent.slug, grossFlow: flowNumber(amount) },
    });
  }
  if (split.holders > 0n && tokenId) {
    await creditHolderPool(tx, tokenId, split.holders, {
      ...move,
      metadata: { role: 'holders', agentSlug: agent.slug, grossFlow: flowNumber(amount) },
    });
  }
  return split;
}

export interface Settlement extends CallRecord {
  holdId: string | null;
  /** The reservation on the caller's API key (null without a key or a price), settled here. */
  spend: SpendReservation | null;
  /** micro-FLOW; see `Debit.lowBalanceThreshold`. */
  lowBalanceThreshold: bigint;
  base: bigint;
  tools: { tool: string; price: bigint }[];
  cost: bigint;
  model: string | null;
  inputTokens: number;
  outputTokens: number;
}

/** A succeeded call and what it was charged. */
const insertSucceededCall = statement<
  NoRow,
  [
    id: string,
    agentId: string,
    callerId: number,
    apiKeyId: string | null,
    latencyMs: number,
    cost: bigint,
    toolsUsed: string[],
    free: boolean,
    model: string | null,
    inputTokens: number,
    outputTokens: number,
    createdAt: Date,
  ]
>(
  'charges.insert_succeeded_call',
  `insert into agent_calls (id, agent_id, caller_id, api_key_id, status, latency_ms, cost,
     tools_used, free, model, input_tokens, output_tokens, created_at)
   values ($1, $2, $3, $4, 'succeeded', $5, $6, $7::text[], $8, $9, $10, $11, $12)`,
);

/**
 * Charges a succeeded call: the key's spend at the real cost, the caller's debit (from its
 * hold), the owner's 95 %, the holders' 5 %, the call record and the day's stats, all in one
 * transaction. Returns the key's spend after it (null without a reservation on a key).
 */
export async function settleCall(em: EntityManager, call: Settlement): Promise<SpendState | null> {
  return em.transactional(async (tx) => {
    // The key's row first: the lock order of every charge (spend-guard.ts).
    const spend = call.spend ? await settleSpend(tx, call.spend, call.cost, call.now) : null;
    const move = {
      reason: 'call' as const,
      refType: 'agent_call',
      refId: call.callId,
      now: call.now,
    };
    if (call.cost > 0n) {
      const split = splitEarnings(call.cost, tokenIdOf(call.agent) !== null);
      const debit = call.holdId
        ? await settleHold(tx, call.holdId, call.callerId, call.cost, {
            ...move,
            lowBalanceThreshold: call.lowBalanceThreshold,
            metadata: {
              role: 'caller',
              agentSlug: call.agent.slug,
              baseFlow: flowNumber(call.base),
              tools: call.tools.map(({ tool, price }) => ({
                tool,
                perCallFlow: flowNumber(price),
              })),
              split: { ownerFlow: flowNumber(split.owner), holdersFlow: flowNumber(split.holders) },
            },
          })
        : null;
      if (!debit) {
        throw new AppError('insufficient_flow', 'the balance no longer covers this call');
      }
      await payEarnings(tx, call.agent, call.cost, move);
    } else if (call.holdId) {
      await settleHold(tx, call.holdId, call.callerId, 0n, {
        ...move,
        lowBalanceThreshold: call.lowBalanceThreshold,
      });
    }
    await sqlOf(tx).run(insertSucceededCall, [
      call.callId,
      call.agent.id,
      call.callerId,
      call.apiKeyId,
      call.latencyMs,
      call.cost,
      call.tools.map(({ tool }) => tool),
      // `free`: the base price was covered (subscription or freemium quota).
      call.base === 0n,
      call.model,
      call.inputTokens,
      call.outputTokens,
      call.now,
    ]);
    await addDailyStats(tx, call.agent.id, call.now, 1, call.cost);
    return spend;
  });
}

export interface SubscriptionPayment {
  agent: Agent;
  subscriberId: number;
  /** The API key the subscriber pays with: the price counts toward its spend cap. */
  apiKeyId: string | null;
  price: bigint;
  periodEnd: (currentEnd: Date | null) => Date;
  now: Date;
  /** micro-FLOW; see `Debit.lowBalanceThreshold`. */
  lowBalanceThreshold: bigint;
}

/** Locks the subscriber's account row for the rest of the transaction. */
const lockAccount = statement<NoRow, [userId: number]>(
  'charges.lock_account',
  'select 1 from flow_accounts where user_id = $1 for update',
);

/** The caller's subscription to the agent (active or not), its period in epoch milliseconds. */
interface SubscriptionRow {
  id: string;
  periodStartMs: number;
  periodEndMs: number;
}

const lockSubscription = statement<SubscriptionRow, [agentId: string, subscriberId: number]>(
  'charges.lock_subscription',
  `select id, ${epochMs('period_start')} as "periodStartMs",
          ${epochMs('period_end')} as "periodEndMs"
     from agent_subscriptions
   where agent_id = $1 and subscriber_id = $2 for update`,
);

/** Starts a subscription, or moves an existing one to its new period. */
const upsertSubscription = statement<
  NoRow,
  [id: string, agentId: string, subscriberId: number, periodStart: Date, periodEnd: Date, now: Date]
>(
  'charges.upsert_subscription',
  `insert into agent_subscriptions
     (id, agent_id, subscriber_id, period_start, period_end, created_at, updated_at)
   values ($1, $2, $3, $4, $5, $6, $6)
   on conflict (agent_id, subscriber_id) do update set
     period_start = excluded.period_start, period_end = excluded.period_end,
     updated_at = excluded.updated_at`,
);

/**
 * Pays a month of an agent subscription from the subscriber's balance (402 when short) and
 * starts or extends the subscription, in one transaction with the price's charge on the
 * subscriber's API key (402 `spend_limit_reached` past its cap). Returns the key's spend after
 * it (null without a key).
 */
export async function paySubscription(em: EntityManager, payment: SubscriptionPayment) {
  return em.transactional(async (tx) => {
    const { agent, subscriberId, price, now } = payment;
    // The key's row before the account's: the lock order of every charge (spend-guard.ts).
    const spend = payment.apiKeyId ? await reserveSpend(tx, payment.apiKeyId, price, now) : null;
    // The account row lock serialises one user's payments: two first subscribes at once each
    // pay for (and get) their own month instead of both paying for the same one.
    const sql = sqlOf(tx);
    await sql.run(lockAccount, [subscriberId]);
    const current = await sql.row(lockSubscription, [agent.id, subscriberId]);
    const active = current && current.periodEndMs > now.getTime() ? current : undefined;
    const id = current?.id ?? randomUUID();
    const periodStart = active ? new Date(active.periodStartMs) : now;
    const periodEnd = payment.periodEnd(active ? new Date(active.periodEndMs) : null);
    const move = { reason: 'call' as const, refType: 'agent_subscription', refId: id, now };
    if (price > 0n) {
      const split = splitEarnings(price, tokenIdOf(agent) !== null);
      const debit = await debitUser(tx, subscriberId, price, {
        ...move,
        lowBalanceThreshold: payment.lowBalanceThreshold,
        metadata: {
          role: 'caller',
          agentSlug: agent.slug,
          periodEnd: periodEnd.toISOString(),
          split: { ownerFlow: flowNumber(split.owner), holdersFlow: flowNumber(split.holders) },
        },
      });
      if (!debit) {
        throw new AppError(
          'insufficient_flow',
          `a month of ${agent.slug} costs ${flowNumber(price)} FLOW, more than your spendable balance`,
        );
      }
      await payEarnings(tx, agent, price, move);
    }
    await sql.run(upsertSubscription, [id, agent.id, subscriberId, periodStart, periodEnd, now]);
    await addDailyStats(tx, agent.id, now, 0, price);
    return { id, periodStart, periodEnd, renewed: active !== undefined, spend };
  });
}
