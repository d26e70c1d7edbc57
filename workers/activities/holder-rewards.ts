import { randomUUID } from 'node:crypto';
import { Context } from '@temporalio/activity';
import {
  WorkflowExecutionAlreadyStartedError,
  WorkflowIdConflictPolicy,
  type Client,
} from '@temporalio/client';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { EntityManager } from '../../shared/db/orm';
import type { Config } from '../../shared/config';
import { sqlOf, statement } from '../../shared/db/sql';
import { flowNumber } from '../../shared/domain/flow';
import { creditUser, debitHolderPool } from '../../shared/flow/ledger';
import type { Logger } from '../../shared/logger';
import {
  mainTaskQueue,
  workflowIds,
  workflowTypes,
  type HolderRewardDistributionInput,
  type HolderRewardDistributionResult,
} from '../../shared/temporal';
import { ensureSearchAttributesRegistered } from '../../shared/temporal/search-attribute-registration';
import { searchAttributes } from '../../shared/temporal/search-attributes';

/**
 * Holder rewards (docs/decisions.md "Holder rewards"): a token's pool of 5 % agent earnings,
 * shared pro rata among the platform users holding the token on chain.
 *
 * A distribution is planned once per token and UTC day, in one transaction that locks the
 * token row: the shares of the users holding the token at the chain's finalized indexed block
 * (each rounded down), reserved out of the pool with a ledger row. Each share is then credited
 * in a transaction of its own that marks it paid, so a retry pays only what is still unpaid and
 * no transaction ever locks more than one account (an invocation locks its accounts and then
 * the token: neither order can deadlock with these). Holders that are not users, the rounding
 * remainder and whatever accrues meanwhile stay in the pool.
 */

const HOLDER_REWARD_REF_TYPE = 'holder_reward';
/** Payouts credited between two heartbeats. */
const PAY_BATCH = 100;

/** A statement run for its effect: it returns no rows. */
type NoRow = Record<string, never>;

/** The token to plan for, its launch and the chain's finalized indexed block. */
interface PlannedToken {
  id: string;
  chainId: number;
  instance: string;
  /** micro-FLOW, int8 as text. */
  pool: string;
  factory: string;
  protocol: string | null;
  tree: string | null;
  gwt: string | null;
  /** The highest block at finality depth (int8 as text); null before the chain is indexed. */
  safeBlock: string | null;
}

/**
 * Locks the token row for the plan. The finality depth of its chain comes from the config's
 * per-chain map (`$1`, JSON by chain id) or the default (`$2`).
 */
const lockPlannedToken = statement<
  PlannedToken,
  [finalityDepths: string, defaultFinalityDepth: number, tokenId: string]
>(
  'holder_rewards.lock_token',
  `select t.id, t.chain_id as "chainId", l.instance, t.holder_reward_pool::text as pool,
          l.factory, l.protocol, l.tree, l.gwt,
          (c.next_block - 1 - coalesce(($1::jsonb ->> t.chain_id::text)::int, $2::int))::text
            as "safeBlock"
     from tokens t
     join chain_launches l on l.chain_id = t.chain_id and l.instance = lower(t.instance)
     left join chain_cursors c on c.chain_id = t.chain_id
    where t.id = $3
      for update of t`,
);

/** A distribution already planned. */
interface DistributionIdRow {
  id: string;
}

const plannedDistribution = statement<DistributionIdRow, [tokenId: string, period: string]>(
  'holder_rewards.planned_distribution',
  'select id from holder_reward_distributions where token_id = $1 and period = $2::date',
);

/** Where the holders' balances are read: `$1` chain, `$2` block, `$3` instance, `$4` own. */
type BalancesAt = [chainId: number, block: string, instance: string, ownAddresses: string];

/**
 * Balances at the finalized block `$2`: today's, less what moved in the blocks above it,
 * without the launch's own contracts (`$4`, a JSON array of addresses).
 */
const BALANCES_AT = `with moved as (
    select address, sum(delta) as delta from (
      select to_address as address, value as delta from token_transfers
       where chain_id = $1 and block_number > $2::bigint and instance = $3
      union all
      select from_address, -value from token_transfers
       where chain_id = $1 and block_number > $2::bigint and instance = $3) m
     group by address),
  held as (
    select h.address, h.balance - coalesce(m.delta, 0) as balance
      from token_holders h left join moved m on m.address = h.address
     where h.chain_id = $1 and h.instance = $3
       and h.address not in (select jsonb_array_elements_text($4::jsonb)))`;

/** The supply the pool is shared over (numeric as text). */
interface EligibleRow {
  eligible: string;
}

const eligibleSupply = statement<EligibleRow, BalancesAt>(
  'holder_rewards.eligible_supply',
  `${BALANCES_AT}
   select coalesce(sum(balance), 0)::text as eligible from held where balance > 0`,
);

/** A holder who is a platform user, with their balance (numeric as text). */
interface HolderRow {
  userId: number;
  address: string;
  balance: string;
}

const userHolders = statement<HolderRow, BalancesAt>(
  'holder_rewards.user_holders',
  `${BALANCES_AT}
   select u.id as "userId", held.address, held.balance::text as balance
     from held join users u on u.address = held.address
    where held.balance > 0
    order by u.id`,
);

const insertDistribution = statement<
  NoRow,
  [
    id: string,
    tokenId: string,
    period: string,
    chainId: number,
    instance: string,
    blockNumber: string,
    poolBefore: bigint,
    eligibleSupply: bigint,
    distributed: bigint,
    recipients: number,
    createdAt: Date,
  ]
>(
  'holder_rewards.insert_distribution',
  `insert into holder_reward_distributions (id, token_id, period, chain_id, instance,
     block_number, pool_before, eligible_supply, distributed, recipients, created_at)
   values ($1, $2, $3::date, $4, $5, $6, $7, $8, $9, $10, $11)`,
);

/**
 * Every share of a distribution in one statement, however many holders: the shares travel as
 * one JSON parameter (`$2`, an array of {userId, address, balance, amount}).
 */
const insertPayouts = statement<NoRow, [distributionId: string, shares: string]>(
  'holder_rewards.insert_payouts',
  `insert into holder_reward_payouts (distribution_id, user_id, address, balance, amount)
   select $1::uuid, "userId", address, balance, amount
     from jsonb_to_recordset($2::jsonb)
       as r("userId" int, address text, balance numeric, amount bigint)`,
);

/** A share marked paid, with the token it rewards (its amount int8 as text). */
interface PaidPayoutRow {
  amount: string;
  tokenId: string;
  slug: string;
}

/** Marks one share paid unless it already is: no row then. */
const markPayoutPaid = statement<
  PaidPayoutRow,
  [paidAt: Date, distributionId: string, userId: number]
>(
  'holder_rewards.mark_payout_paid',
  `update holder_reward_payouts p set paid_at = $1
     from holder_reward_distributions d join tokens t on t.id = d.token_id
    where p.distribution_id = $2 and p.user_id = $3 and p.paid_at is null
      and d.id = p.distribution_id
   returning p.amount::text as amount, t.id as "tokenId", t.slug`,
);

interface Share {
  userId: number;
  address: string;
  balance: string;
}

/** A share still unpaid (balance numeric and amount int8, as text). */
interface UnpaidShareRow extends Share {
  amount: string;
}

/** The next unpaid shares of a distribution, by user. */
const unpaidShares = statement<UnpaidShareRow, [distributionId: string, limit: number]>(
  'holder_rewards.unpaid_shares',
  `select user_id as "userId", address, balance::text as balance, amount::text as amount
     from holder_reward_payouts
    where distribution_id = $1 and paid_at is null
    order by user_id limit $2`,
);

const completeDistribution = statement<NoRow, [completedAt: Date, distributionId: string]>(
  'holder_rewards.complete_distribution',
  'update holder_reward_distributions set completed_at = $1 where id = $2 and completed_at is null',
);

/** A token due a distribution, with what its workflow's search attributes say. */
interface DueToken {
  id: string;
  ownerId: number;
  chainId: number;
  instance: string;
}

/** Tokens with a pool to share, live on chain, and no distribution in the period yet. */
const dueTokens = statement<DueToken, [period: string]>(
  'holder_rewards.due_tokens',
  `select t.id, t.owner_id as "ownerId", t.chain_id as "chainId", t.instance from tokens t
    where t.holder_reward_pool > 0 and t.instance is not null
      and t.state in ('live', 'graduating', 'sentient')
      and not exists (select 1 from holder_reward_distributions d
                       where d.token_id = t.id and d.period = $1::date)
    order by t.created_at, t.id`,
);

export function createHolderRewardActivities(deps: {
  orm: MikroORM;
  config: Config;
  logger: Logger;
  temporal: Client;
}) {
  /** Plans the token's distribution of `period`, or finds it; null when there is none to make. */
  async function plan(
    tx: EntityManager,
    input: HolderRewardDistributionInput,
    now: Date,
  ): Promise<string | null> {
    const { finalityDepth, defaultFinalityDepth } = deps.config.chainSync;
    const sql = sqlOf(tx);
    const token = await sql.row(lockPlannedToken, [
      JSON.stringify(finalityDepth),
      defaultFinalityDepth,
      input.tokenId,
    ]);
    if (!token) return null;
    const existing = await sql.row(plannedDistribution, [token.id, input.period]);
    if (existing) return existing.id;
    const pool = BigInt(token.pool);
    if (pool === 0n || token.safeBlock === null || Number(token.safeBlock) < 0) return null;

    const block = token.safeBlock;
    const own = [token.factory, token.protocol, token.tree, token.gwt].filter(
      (address): address is string => address !== null,
    );
    const at: BalancesAt = [token.chainId, block, token.instance, JSON.stringify(own)];
    const supply = await sql.row(eligibleSupply, at);
    const eligible = BigInt(supply!.eligible);
    if (eligible === 0n) return null;
    const holders = await sql.rows(userHolders, at);
    const shares = holders
      .map((holder) => ({
        userId: holder.userId,
        address: holder.address,
        balance: holder.balance,
        amount: (pool * BigInt(holder.balance)) / eligible,
      }))
      .filter((share) => share.amount > 0n);
    const distributed = shares.reduce((sum, share) => sum + share.amount, 0n);
    if (distributed === 0n) return null;

    const id = randomUUID();
    await sql.run(insertDistribution, [
      id,
      token.id,
      input.period,
      token.chainId,
      token.instance,
      block,
      pool,
      eligible,
      distributed,
      shares.length,
      now,
    ]);
    await sql.run(insertPayouts, [
      id,
      JSON.stringify(shares.map((share) => ({ ...share, amount: share.amount.toString() }))),
    ]);
    const reserved = await debitHolderPool(tx, token.id, distributed, {
      reason: 'payout',
      refType: HOLDER_REWARD_REF_TYPE,
      refId: id,
      metadata: {
        period: input.period,
        blockNumber: Number(block),
        recipients: shares.length,
        distributedFlow: flowNumber(distributed),
      },
      now,
    });
    // The pool was read under the token's row lock: it cannot have shrunk since.
    if (!reserved) throw new Error(`holder-reward pool of ${token.id} fell under its plan`);
    return id;
  }

  /** Credits one planned share unless already credited; false when there was none left. */
  async function payOne(distributionId: string, share: Share, now: Date): Promise<boolean> {
    return deps.orm.em.fork().transactional(async (tx) => {
      const payout = await sqlOf(tx).row(markPayoutPaid, [now, distributionId, share.userId]);
      if (!payout) return false;
      await creditUser(tx, share.userId, BigInt(payout.amount), {
        reason: 'payout',
        refType: HOLDER_REWARD_REF_TYPE,
        refId: distributionId,
        metadata: {
          tokenId: payout.tokenId,
          tokenSlug: payout.slug,
          address: share.address,
          balance: share.balance,
        },
        now,
      });
      return true;
    });
  }

  return {
    /**
     * Plans the token's distribution of `input.period` (or finds the one planned), then credits
     * every share still unpaid. Idempotent: a repeat finds the plan and nothing unpaid.
     */
    async distributeHolderRewards(
      input: HolderRewardDistributionInput,
    ): Promise<HolderRewardDistributionResult> {
      const id = await deps.orm.em.fork().transactional((tx) => plan(tx, input, new Date()));
      if (!id) return { distributionId: null, credited: 0, creditedFlow: 0 };
      let credited = 0;
      let creditedMicro = 0n;
      for (;;) {
        const unpaid = await sqlOf(deps.orm.em.fork()).rows(unpaidShares, [id, PAY_BATCH]);
        for (const share of unpaid) {
          if (await payOne(id, share, new Date())) {
            credited += 1;
            creditedMicro += BigInt(share.amount);
          }
        }
        Context.current().heartbeat({ credited });
        if (unpaid.length < PAY_BATCH) break;
      }
      await sqlOf(deps.orm.em.fork()).run(completeDistribution, [new Date(), id]);
      if (credited > 0) {
        deps.logger.info(
          { distributionId: id, tokenId: input.tokenId, period: input.period, credited },
          'holder rewards credited',
        );
      }
      return { distributionId: id, credited, creditedFlow: flowNumber(creditedMicro) };
    },

    /**
     * Starts the `holder-rewards:<tokenId>:<period>` workflow of every token with a pool to
     * share and no distribution yet in `period` (from here rather than as child workflows, so
     * the scheduler's history does not grow with the number of tokens), search attributes
     * `TokenAddress`, `ChainId` and the token owner's `UserId`. A running one is left alone; a
     * finished one that found nothing to share may run again later the same day.
     */
    async startDueHolderRewards(input: { period: string }): Promise<{ started: number }> {
      const rows = await sqlOf(deps.orm.em.fork()).rows(dueTokens, [input.period]);
      const taskQueue = mainTaskQueue(deps.config.temporal.taskQueue);
      if (rows.length > 0) await ensureSearchAttributesRegistered(deps.temporal);
      let started = 0;
      for (const { id: tokenId, ownerId: userId, chainId, instance } of rows) {
        try {
          await deps.temporal.workflow.start(workflowTypes.holderRewardDistribution, {
            workflowId: workflowIds.holderRewardDistribution(tokenId, input.period),
            taskQueue,
            args: [{ tokenId, period: input.period } satisfies HolderRewardDistributionInput],
            workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
            typedSearchAttributes: searchAttributes({ userId, chainId, tokenAddress: instance }),
          });
          started += 1;
        } catch (error) {
          if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
        }
      }
      return { started };
    },
  };
}

export type HolderRewardActivities = ReturnType<typeof createHolderRewardActivities>;
