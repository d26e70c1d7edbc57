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

interface PlannedToken {
  id: string;
  chain_id: number;
  instance: string;
  pool: string;
  factory: string;
  protocol: string | null;
  tree: string | null;
  gwt: string | null;
  safe_block: string | null;
}

interface Share {
  userId: number;
  address: string;
  balance: string;
}

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
    const [token] = await tx.execute<PlannedToken[]>(
      `select t.id, t.chain_id, l.instance, t.holder_reward_pool::text as pool,
              l.factory, l.protocol, l.tree, l.gwt,
              (c.next_block - 1 - coalesce((?::jsonb ->> t.chain_id::text)::int, ?))::text
                as safe_block
         from tokens t
         join chain_launches l on l.chain_id = t.chain_id and l.instance = lower(t.instance)
         left join chain_cursors c on c.chain_id = t.chain_id
        where t.id = ?
          for update of t`,
      [JSON.stringify(finalityDepth), defaultFinalityDepth, input.tokenId],
    );
    if (!token) return null;
    const [existing] = await tx.execute<{ id: string }[]>(
      'select id from holder_reward_distributions where token_id = ? and period = ?::date',
      [token.id, input.period],
    );
    if (existing) return existing.id;
    const pool = BigInt(token.pool);
    if (pool === 0n || token.safe_block === null || Number(token.safe_block) < 0) return null;

    const block = token.safe_block;
    const own = [token.factory, token.protocol, token.tree, token.gwt].filter(
      (address): address is string => address !== null,
    );
    // Balances at the finalized block: today's, less what moved in the blocks above it.
    const balances = `with moved as (
        select address, sum(delta) as delta from (
          select to_address as address, value as delta from token_transfers
           where chain_id = ? and block_number > ?::bigint and instance = ?
          union all
          select from_address, -value from token_transfers
           where chain_id = ? and block_number > ?::bigint and instance = ?) m
         group by address),
      held as (
        select h.address, h.balance - coalesce(m.delta, 0) as balance
          from token_holders h left join moved m on m.address = h.address
         where h.chain_id = ? and h.instance = ?
           and h.address not in (select jsonb_array_elements_text(?::jsonb)))`;
    const at = [
      token.chain_id,
      block,
      token.instance,
      token.chain_id,
      block,
      token.instance,
      token.chain_id,
      token.instance,
      JSON.stringify(own),
    ];
    const [supply] = await tx.execute<{ eligible: string }[]>(
      `${balances} select coalesce(sum(balance), 0)::text as eligible from held where balance > 0`,
      at,
    );
    const eligible = BigInt(supply!.eligible);
    if (eligible === 0n) return null;
    const holders = await tx.execute<{ user_id: number; address: string; balance: string }[]>(
      `${balances} select u.id as user_id, held.address, held.balance::text as balance
         from held join users u on u.address = held.address
        where held.balance > 0
        order by u.id`,
      at,
    );
    const shares = holders
      .map((holder) => ({
        userId: holder.user_id,
        address: holder.address,
        balance: holder.balance,
        amount: (pool * BigInt(holder.balance)) / eligible,
      }))
      .filter((share) => share.amount > 0n);
    const distributed = shares.reduce((sum, share) => sum + share.amount, 0n);
    if (distributed === 0n) return null;

    const id = randomUUID();
    await tx.execute(
      `insert into holder_reward_distributions (id, token_id, period, chain_id, instance,
         block_number, pool_before, eligible_supply, distributed, recipients, created_at)
       values (?, ?, ?::date, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        id,
        token.id,
        input.period,
        token.chain_id,
        token.instance,
        block,
        pool.toString(),
        eligible.toString(),
        distributed.toString(),
        shares.length,
        now,
      ],
    );
    await tx.execute(
      `insert into holder_reward_payouts (distribution_id, user_id, address, balance, amount)
       select ?, "userId", address, balance, amount
         from jsonb_to_recordset(?::jsonb)
           as r("userId" int, address text, balance numeric, amount bigint)`,
      [id, JSON.stringify(shares.map((share) => ({ ...share, amount: share.amount.toString() })))],
    );
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
      const [payout] = await tx.execute<{ amount: string; token_id: string; slug: string }[]>(
        `update holder_reward_payouts p set paid_at = ?
           from holder_reward_distributions d join tokens t on t.id = d.token_id
          where p.distribution_id = ? and p.user_id = ? and p.paid_at is null
            and d.id = p.distribution_id
         returning p.amount::text as amount, t.id as token_id, t.slug`,
        [now, distributionId, share.userId],
      );
      if (!payout) return false;
      await creditUser(tx, share.userId, BigInt(payout.amount), {
        reason: 'payout',
        refType: HOLDER_REWARD_REF_TYPE,
        refId: distributionId,
        metadata: {
          tokenId: payout.token_id,
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
        const unpaid = await deps.orm.em.fork().execute<(Share & { amount: string })[]>(
          `select user_id as "userId", address, balance::text as balance, amount::text as amount
             from holder_reward_payouts
            where distribution_id = ? and paid_at is null
            order by user_id limit ?`,
          [id, PAY_BATCH],
        );
        for (const share of unpaid) {
          if (await payOne(id, share, new Date())) {
            credited += 1;
            creditedMicro += BigInt(share.amount);
          }
        }
        Context.current().heartbeat({ credited });
        if (unpaid.length < PAY_BATCH) break;
      }
      await deps.orm.em
        .fork()
        .execute(
          'update holder_reward_distributions set completed_at = ? where id = ? and completed_at is null',
          [new Date(), id],
        );
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
      const rows = await deps.orm.em.fork().execute<DueToken[]>(
        `select t.id, t.owner_id, t.chain_id, t.instance from tokens t
          where t.holder_reward_pool > 0 and t.instance is not null
            and t.state in ('live', 'graduating', 'sentient')
            and not exists (select 1 from holder_reward_distributions d
                             where d.token_id = t.id and d.period = ?::date)
          order by t.created_at, t.id`,
        [input.period],
      );
      const taskQueue = mainTaskQueue(deps.config.temporal.taskQueue);
      if (rows.length > 0) await ensureSearchAttributesRegistered(deps.temporal);
      let started = 0;
      for (const { id: tokenId, owner_id: userId, chain_id: chainId, instance } of rows) {
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

/** A token due a distribution, with what its workflow's search attributes say. */
interface DueToken {
  id: string;
  owner_id: number;
  chain_id: number;
  instance: string;
}

export type HolderRewardActivities = ReturnType<typeof createHolderRewardActivities>;
