import {
  DriverException,
  IsolationLevel,
  UniqueConstraintViolationException,
} from '@mikro-orm/core';
import type { z } from 'zod';
import { LedgerEntry } from '../../../shared/db/entities';
import type { EntityManager } from '../../../shared/db/orm';
import type { CursorCodec } from '../../../shared/domain/cursor';
import { flowNumber } from '../../../shared/domain/flow';
import { AppError } from '../../../shared/errors';
import { creditUser } from '../../../shared/flow/ledger';
import { pageScope, paginate } from '../../plugins/pagination';
import type { creditBody, ledgerQuery, LedgerEntryWire } from './schemas';

/** FLOW reads for one user, and the internal credit (spec "FLOW balance and ledger", §6). */

export const RECENT_LEDGER_SIZE = 20;
/** Internal credits are ledger rows of this refType; its refId is unique (a partial index). */
export const CREDIT_REF_TYPE = 'credit';
/** PostgreSQL's SQLSTATE when a bigint balance would overflow. */
const NUMERIC_OUT_OF_RANGE = '22003';

export function ledgerEntryWire(entry: LedgerEntry): LedgerEntryWire {
  return {
    id: entry.id,
    delta: flowNumber(BigInt(entry.delta)),
    balanceAfter: flowNumber(BigInt(entry.balanceAfter)),
    reason: entry.reason,
    refType: entry.refType,
    refId: entry.refId,
    metadata: entry.metadata,
    createdAt: entry.createdAt.toISOString(),
  };
}

/** The caller's ledger, newest first, keyset-paged (`from` inclusive, `to` exclusive). */
export async function listLedger(
  em: EntityManager,
  cursors: CursorCodec,
  userId: number,
  query: z.output<typeof ledgerQuery>,
) {
  const { from, to, reason } = query;
  if (from && to && from > to) throw new AppError('invalid_request', 'from: must not be after to');
  const createdAt = { ...(from && { $gte: from }), ...(to && { $lt: to }) };
  const page = await paginate(em, cursors, LedgerEntry, {
    scope: pageScope('ledger', {
      userId,
      reason: reason ?? null,
      from: from?.toISOString() ?? null,
      to: to?.toISOString() ?? null,
    }),
    where: {
      user: userId,
      ...(reason && { reason }),
      ...((from || to) && { createdAt }),
    },
    orderBy: { createdAt: 'desc', id: 'desc' },
    limit: query.limit,
    cursor: query.cursor,
  });
  return { items: page.items.map(ledgerEntryWire), nextCursor: page.nextCursor };
}

interface BalanceTotals {
  spendable: string;
  top_up: string;
  subscription_grant: string;
  creator_share: string;
  holder_rewards: string;
  freelance: string;
  quests: string;
}

/**
 * The deprecated balance record. One snapshot (repeatable read), so the balance, the totals
 * and the recent entries agree with each other.
 */
export async function flowBalance(em: EntityManager, userId: number) {
  return em.transactional(
    async (tx) => {
      // Agent earnings are positive `call` rows; holder rewards and freelance pay are told
      // apart by their refType, so they never count twice.
      const [totals] = await tx.execute<BalanceTotals[]>(
        `select
           coalesce((select balance - held from flow_accounts where user_id = ?), 0) as spendable,
           coalesce(sum(delta) filter (where reason = 'topup' and delta > 0), 0) as top_up,
           coalesce(sum(delta) filter (where reason = 'grant'), 0) as subscription_grant,
           coalesce(sum(delta) filter (where reason = 'call' and delta > 0
             and ref_type not in ('holder_reward', 'freelance')), 0) as creator_share,
           coalesce(sum(delta) filter (where ref_type = 'holder_reward'), 0) as holder_rewards,
           coalesce(sum(delta) filter (where ref_type = 'freelance'), 0) as freelance,
           coalesce(sum(delta) filter (where reason = 'quest'), 0) as quests
         from ledger_entries where user_id = ?`,
        [userId, userId],
      );
      const recent = await tx.find(
        LedgerEntry,
        { user: userId },
        { orderBy: { createdAt: 'desc', id: 'desc' }, limit: RECENT_LEDGER_SIZE },
      );
      const micro = (value: string | undefined) => BigInt(value ?? 0);
      const spendable = micro(totals?.spendable);
      const granted = micro(totals?.subscription_grant);
      // Grant FLOW is never withdrawable; top-ups are only credited once the provider has
      // confirmed them, so none is unsettled. Spending is assumed to use grant FLOW last.
      const withdrawable = spendable - (granted > 0n ? granted : 0n);
      return {
        balance: flowNumber(spendable),
        withdrawableFlow: flowNumber(withdrawable > 0n ? withdrawable : 0n),
        breakdown: {
          topUp: flowNumber(micro(totals?.top_up)),
          subscriptionGrant: flowNumber(granted),
          creatorShare: flowNumber(micro(totals?.creator_share)),
          holderRewardsTotal: flowNumber(micro(totals?.holder_rewards)),
          freelance: flowNumber(micro(totals?.freelance)),
          quests: flowNumber(micro(totals?.quests)),
        },
        recentLedger: recent.map(ledgerEntryWire),
      };
    },
    { isolationLevel: IsolationLevel.REPEATABLE_READ },
  );
}

type CreditInput = z.output<typeof creditBody>;

async function spendableOf(em: EntityManager, userId: number): Promise<number> {
  const [row] = await em.execute<{ spendable: string }[]>(
    'select balance - held as spendable from flow_accounts where user_id = ?',
    [userId],
  );
  return flowNumber(BigInt(row?.spendable ?? 0));
}

/**
 * The credit already made under this refId: the same credit again is a replay (its original
 * entry), anything else under the same refId is a conflict. Null when there is none.
 */
async function earlierCredit(em: EntityManager, input: CreditInput) {
  const entry = await em.findOne(
    LedgerEntry,
    { refType: CREDIT_REF_TYPE, refId: input.refId },
    { disableIdentityMap: true },
  );
  if (!entry) return null;
  const same =
    entry.user?.id === input.userId &&
    BigInt(entry.delta) === input.amountFlow &&
    entry.reason === input.reason;
  if (!same) {
    throw new AppError(
      'ref_id_conflict',
      `refId: ${input.refId} was already used for a different credit`,
    );
  }
  return { entry: ledgerEntryWire(entry), balance: await spendableOf(em, input.userId) };
}

async function insertCredit(em: EntityManager, input: CreditInput) {
  return em.transactional(async (tx) => {
    const users = await tx.execute<{ id: number }[]>('select id from users where id = ?', [
      input.userId,
    ]);
    if (users.length === 0) {
      throw new AppError('user_not_found', `userId: user ${input.userId} does not exist`);
    }
    const row = await creditUser(tx, input.userId, input.amountFlow, {
      reason: input.reason,
      refType: CREDIT_REF_TYPE,
      refId: input.refId,
      metadata: input.metadata ?? {},
      now: new Date(),
    });
    const entry = await tx.findOneOrFail(LedgerEntry, row.id);
    return { entry: ledgerEntryWire(entry), balance: await spendableOf(tx, input.userId) };
  });
}

/**
 * Credits FLOW once per refId. A concurrent duplicate loses on the unique index
 * `ledger_entries_credit_ref_unique` (its transaction, balance update included, rolls back)
 * and is then answered like any later replay.
 */
export async function creditFlow(em: EntityManager, input: CreditInput) {
  const earlier = await earlierCredit(em, input);
  if (earlier) return { replayed: true, ...earlier };
  try {
    return { replayed: false, ...(await insertCredit(em, input)) };
  } catch (err) {
    if (err instanceof DriverException && err.code === NUMERIC_OUT_OF_RANGE) {
      throw new AppError('invalid_request', 'amountFlow: would take the balance past its maximum');
    }
    if (!(err instanceof UniqueConstraintViolationException)) throw err;
    const winner = await earlierCredit(em, input);
    if (!winner) throw err;
    return { replayed: true, ...winner };
  }
}
