import { DriverException, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { Config } from '../../../shared/config';
import { LedgerEntry } from '../../../shared/db/entities';
import type { EntityManager } from '../../../shared/db/orm';
import type { CursorCodec } from '../../../shared/domain/cursor';
import { sqlOf, statement, type Sql } from '../../../shared/db/sql';
import { flowNumber } from '../../../shared/domain/flow';
import { AppError } from '../../../shared/errors';
import { creditUser } from '../../../shared/flow/ledger';
import type { Actor } from '../../access/actor';
import { keyset } from '../../paging/keyset';
import { pageScope } from '../../paging/page';
import { flowBalance as balanceQuery, LEDGER_ORDER, ledgerPage, type LedgerRow } from './queries';
import type { CreditInput, LedgerEntryWire, LedgerInput } from './schemas';

/** FLOW reads for one user, and the internal credit (spec "FLOW balance and ledger", §6). */

export const RECENT_LEDGER_SIZE = 20;
/** Internal credits are ledger rows of this refType; its refId is unique (a partial index). */
export const CREDIT_REF_TYPE = 'credit';
/** PostgreSQL's SQLSTATE when a bigint balance would overflow. */
const NUMERIC_OUT_OF_RANGE = '22003';

export interface FlowDeps {
  /** Writes (the internal credit): the request's EntityManager. */
  em: EntityManager;
  /** Reads: prepared statements, no entities. */
  db: Sql;
  cursors: CursorCodec;
  config: Pick<Config, 'payments'>;
}

export function ledgerEntryWire(entry: LedgerRow): LedgerEntryWire {
  return {
    id: entry.id,
    delta: flowNumber(BigInt(entry.delta)),
    balanceAfter: flowNumber(BigInt(entry.balanceAfter)),
    reason: entry.reason,
    refType: entry.refType,
    refId: entry.refId,
    metadata: entry.metadata,
    createdAt: entry.createdAt,
  };
}

/** An entry a credit just read through MikroORM, in the row shape of the reads. */
function ledgerRowOf(entry: LedgerEntry): LedgerRow {
  return {
    id: entry.id,
    delta: String(entry.delta),
    balanceAfter: String(entry.balanceAfter),
    reason: entry.reason,
    refType: entry.refType,
    refId: entry.refId,
    metadata: entry.metadata,
    createdAt: entry.createdAt.toISOString(),
  };
}

/** The caller's ledger, newest first, keyset-paged (`from` inclusive, `to` exclusive). */
export async function listLedger(
  deps: Pick<FlowDeps, 'db' | 'cursors'>,
  actor: Actor,
  query: LedgerInput,
) {
  const { userId } = actor;
  const { from, to, reason } = query;
  if (from && to && from > to) throw new AppError('invalid_request', 'from: must not be after to');
  const page = keyset(deps.cursors, LEDGER_ORDER, {
    scope: pageScope('ledger', {
      userId,
      reason: reason ?? null,
      from: from?.toISOString() ?? null,
      to: to?.toISOString() ?? null,
    }),
    limit: query.limit,
    cursor: query.cursor,
  });
  const rows = await deps.db.rows(ledgerPage, [
    userId,
    reason ?? null,
    from ?? null,
    to ?? null,
    ...page.after,
    page.fetch,
  ]);
  const { items, nextCursor } = page.page(rows);
  return { items: items.map(ledgerEntryWire), nextCursor };
}

/** The deprecated balance record, from one statement (one snapshot). */
export async function flowBalance(deps: Pick<FlowDeps, 'db' | 'config'>, actor: Actor) {
  const totals = await deps.db.row(balanceQuery, [
    actor.userId,
    RECENT_LEDGER_SIZE,
    deps.config.payments.topupSettlementHours,
  ]);
  const micro = (value: string | undefined) => BigInt(value ?? 0);
  const spendable = micro(totals?.spendable);
  const granted = micro(totals?.subscriptionGrant);
  // Grant FLOW is never withdrawable, nor are top-ups younger than TOPUP_SETTLEMENT_HOURS
  // (a payment can still be disputed). Spending is assumed to use those last.
  const locked = (granted > 0n ? granted : 0n) + micro(totals?.unsettledTopups);
  const withdrawable = spendable - locked;
  return {
    balance: flowNumber(spendable),
    withdrawableFlow: flowNumber(withdrawable > 0n ? withdrawable : 0n),
    breakdown: {
      topUp: flowNumber(micro(totals?.topUp)),
      subscriptionGrant: flowNumber(granted),
      creatorShare: flowNumber(micro(totals?.creatorShare)),
      holderRewardsTotal: flowNumber(micro(totals?.holderRewards)),
      freelance: flowNumber(micro(totals?.freelance)),
      quests: flowNumber(micro(totals?.quests)),
    },
    recentLedger: (totals?.recent ?? []).map(ledgerEntryWire),
  };
}

/** What a user can spend, micro-FLOW (int8 as text). */
interface SpendableRow {
  spendable: string;
}

/** A user's spendable balance; no row before their first credit. */
const spendableBalance = statement<SpendableRow, [userId: number]>(
  'flow.spendable',
  'select (balance - held)::text as spendable from flow_accounts where user_id = $1',
);

/** Run on the credit's EntityManager (inside its transaction: the balance it just wrote). */
async function spendableOf(em: EntityManager, userId: number): Promise<number> {
  const row = await sqlOf(em).row(spendableBalance, [userId]);
  return flowNumber(BigInt(row?.spendable ?? 0));
}

/** The user a credit names, when they exist. */
interface UserIdRow {
  id: number;
}

const userExists = statement<UserIdRow, [userId: number]>(
  'flow.user_exists',
  'select id from users where id = $1',
);

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
  return {
    entry: ledgerEntryWire(ledgerRowOf(entry)),
    balance: await spendableOf(em, input.userId),
  };
}

async function insertCredit(em: EntityManager, input: CreditInput) {
  return em.transactional(async (tx) => {
    const user = await sqlOf(tx).row(userExists, [input.userId]);
    if (!user) {
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
    return {
      entry: ledgerEntryWire(ledgerRowOf(entry)),
      balance: await spendableOf(tx, input.userId),
    };
  });
}

/**
 * Credits FLOW once per refId. A concurrent duplicate loses on the unique index
 * `ledger_entries_credit_ref_unique` (its transaction, balance update included, rolls back)
 * and is then answered like any later replay. An internal route: no user acts, so no actor.
 */
export async function creditFlow(deps: Pick<FlowDeps, 'em'>, input: CreditInput) {
  const { em } = deps;
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
