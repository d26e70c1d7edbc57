import { randomUUID } from 'node:crypto';
import type { EntityManager } from '../db/orm';
import type { LedgerReason } from '../db/entities/ledger-entry';
import { sqlOf, statement } from '../db/sql';
import { flowNumber, parseFlow } from '../domain/flow';
import { enqueueOutboxEvent } from '../outbox/outbox';

/**
 * The only code that moves FLOW. Every movement changes one balance (a user's account or a
 * token's holder-reward pool) and writes its ledger row in the same statement sequence; callers
 * run these inside one transaction (`em.transactional`) so a failure leaves nothing half done.
 * Balances cannot go negative: the debits are conditional UPDATEs and the table has CHECKs.
 * Amounts are micro-FLOW.
 */

export interface Movement {
  reason: LedgerReason;
  refType: string;
  refId: string;
  metadata?: Record<string, unknown>;
  now: Date;
}

/** A movement that takes FLOW from a user's balance. */
export interface Debit extends Movement {
  /**
   * micro-FLOW (config LOW_BALANCE_THRESHOLD_FLOW, see `lowBalanceThreshold`): a debit that takes
   * the balance from at or above it to below it records `flow.balance.low` in its transaction.
   */
  lowBalanceThreshold: bigint;
}

/** The configured LOW_BALANCE_THRESHOLD_FLOW in micro-FLOW, for `Debit.lowBalanceThreshold`. */
export function lowBalanceThreshold(thresholdFlow: number): bigint {
  const micro = parseFlow(thresholdFlow);
  if (micro === null) throw new RangeError(`${thresholdFlow} is not a FLOW threshold`);
  return micro;
}

export interface LedgerRow {
  id: string;
  delta: bigint;
  balanceAfter: bigint;
}

/** A statement run for its effect: it returns no rows. */
type NoRow = Record<string, never>;

/** Opens a user's account at zero unless it exists. */
const openAccount = statement<NoRow, [userId: number, now: Date]>(
  'ledger.open_account',
  `insert into flow_accounts (user_id, balance, held, updated_at) values ($1, 0, 0, $2)
   on conflict (user_id) do nothing`,
);

async function ensureAccount(em: EntityManager, userId: number, now: Date): Promise<void> {
  await sqlOf(em).run(openAccount, [userId, now]);
}

/** The ledger row of one movement, on a user's account or a token's pool (never both). */
const insertEntry = statement<
  NoRow,
  [
    id: string,
    userId: number | null,
    tokenId: string | null,
    delta: bigint,
    balanceAfter: bigint,
    reason: LedgerReason,
    refType: string,
    refId: string,
    metadata: string,
    createdAt: Date,
  ]
>(
  'ledger.insert_entry',
  `insert into ledger_entries
     (id, user_id, token_id, delta, balance_after, reason, ref_type, ref_id, metadata, created_at)
   values ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10)`,
);

async function writeEntry(
  em: EntityManager,
  account: { userId: number } | { tokenId: string },
  delta: bigint,
  balanceAfter: bigint,
  move: Movement,
): Promise<LedgerRow> {
  const id = randomUUID();
  await sqlOf(em).run(insertEntry, [
    id,
    'userId' in account ? account.userId : null,
    'tokenId' in account ? account.tokenId : null,
    delta,
    balanceAfter,
    move.reason,
    move.refType,
    move.refId,
    JSON.stringify(move.metadata ?? {}),
    move.now,
  ]);
  return { id, delta, balanceAfter };
}

/** A balance after its change, int8 as text. */
interface BalanceRow {
  balance: string;
}

/** Adds to a user's balance (the account exists: `openAccount` ran first). */
const creditAccount = statement<BalanceRow, [amount: bigint, now: Date, userId: number]>(
  'ledger.credit_account',
  `update flow_accounts set balance = balance + $1::bigint, updated_at = $2 where user_id = $3
   returning balance::text as balance`,
);

/** Adds `amount` (> 0) to a user's balance. */
export async function creditUser(
  em: EntityManager,
  userId: number,
  amount: bigint,
  move: Movement,
): Promise<LedgerRow> {
  if (amount <= 0n) throw new RangeError('credit must be positive');
  await ensureAccount(em, userId, move.now);
  const row = await sqlOf(em).row(creditAccount, [amount, move.now, userId]);
  return writeEntry(em, { userId }, amount, BigInt(row!.balance), move);
}

/**
 * Records `flow.balance.low` when this debit crossed the threshold. The UPDATE that made the
 * entry held the account row lock, so `balanceAfter - delta` is exactly the balance this debit
 * started from: of concurrent debits only the one that crosses sees before ≥ threshold > after.
 */
async function noteLowBalance(
  em: EntityManager,
  userId: number,
  entry: LedgerRow,
  threshold: bigint,
): Promise<void> {
  const before = entry.balanceAfter - entry.delta;
  if (before < threshold || entry.balanceAfter >= threshold) return;
  await enqueueOutboxEvent(em, {
    userId,
    event: 'flow.balance.low',
    data: { balance: flowNumber(entry.balanceAfter), threshold: flowNumber(threshold) },
    dedupeKey: `flow.balance.low:${entry.id}`,
  });
}

/**
 * Takes from a user's balance only what is spendable (not held): no row when it is short.
 * The CHECKs on flow_accounts refuse a negative balance or more held than the balance.
 */
const debitAccount = statement<BalanceRow, [amount: bigint, now: Date, userId: number]>(
  'ledger.debit_account',
  `update flow_accounts set balance = balance - $1::bigint, updated_at = $2
   where user_id = $3 and balance - held >= $1::bigint returning balance::text as balance`,
);

/** Takes `amount` (> 0) from what a user can spend, or returns null when it is not there. */
export async function debitUser(
  em: EntityManager,
  userId: number,
  amount: bigint,
  move: Debit,
): Promise<LedgerRow | null> {
  if (amount <= 0n) throw new RangeError('debit must be positive');
  const row = await sqlOf(em).row(debitAccount, [amount, move.now, userId]);
  if (!row) return null;
  const entry = await writeEntry(em, { userId }, -amount, BigInt(row.balance), move);
  await noteLowBalance(em, userId, entry, move.lowBalanceThreshold);
  return entry;
}

/** A token's holder-reward pool after its change, int8 as text. */
interface PoolRow {
  pool: string;
}

/** Adds to a token's holder-reward pool; no row when the token does not exist. */
const creditPool = statement<PoolRow, [amount: bigint, tokenId: string]>(
  'ledger.credit_pool',
  `update tokens set holder_reward_pool = holder_reward_pool + $1::bigint where id = $2
   returning holder_reward_pool::text as pool`,
);

/** Takes from a token's holder-reward pool only what it holds: no row when it holds less. */
const debitPool = statement<PoolRow, [amount: bigint, tokenId: string]>(
  'ledger.debit_pool',
  `update tokens set holder_reward_pool = holder_reward_pool - $1::bigint
    where id = $2 and holder_reward_pool >= $1::bigint
   returning holder_reward_pool::text as pool`,
);

/** Accrues `amount` (> 0) to a token's holder-reward pool. */
export async function creditHolderPool(
  em: EntityManager,
  tokenId: string,
  amount: bigint,
  move: Movement,
): Promise<LedgerRow> {
  if (amount <= 0n) throw new RangeError('credit must be positive');
  const row = await sqlOf(em).row(creditPool, [amount, tokenId]);
  if (!row) throw new Error(`token ${tokenId} does not exist`);
  return writeEntry(em, { tokenId }, amount, BigInt(row.pool), move);
}

/**
 * Takes `amount` (> 0) out of a token's holder-reward pool (a distribution reserving what it
 * pays out), or returns null when the pool holds less.
 */
export async function debitHolderPool(
  em: EntityManager,
  tokenId: string,
  amount: bigint,
  move: Movement,
): Promise<LedgerRow | null> {
  if (amount <= 0n) throw new RangeError('debit must be positive');
  const row = await sqlOf(em).row(debitPool, [amount, tokenId]);
  if (!row) return null;
  return writeEntry(em, { tokenId }, -amount, BigInt(row.pool), move);
}

/** The account a reservation was made on. */
interface HeldRow {
  userId: number;
}

/** Reserves part of a user's spendable balance: no row when the balance is short. */
const holdAccount = statement<HeldRow, [amount: bigint, now: Date, userId: number]>(
  'ledger.hold_account',
  `update flow_accounts set held = held + $1::bigint, updated_at = $2
   where user_id = $3 and balance - held >= $1::bigint returning user_id as "userId"`,
);

/** The hold the reservation above is for. */
const insertHold = statement<
  NoRow,
  [id: string, userId: number, amount: bigint, createdAt: Date, expiresAt: Date]
>(
  'ledger.insert_hold',
  `insert into flow_holds (id, user_id, amount, created_at, expires_at)
   values ($1, $2, $3, $4, $5)`,
);

/**
 * Reserves `amount` (> 0) of a user's spendable FLOW for a call in flight. Returns the hold id,
 * or null when the balance is short. A hold not settled or released by `expiresAt` is released
 * by the maintenance sweep.
 */
export async function holdFlow(
  em: EntityManager,
  userId: number,
  amount: bigint,
  now: Date,
  expiresAt: Date,
): Promise<string | null> {
  if (amount <= 0n) throw new RangeError('hold must be positive');
  return em.transactional(async (tx) => {
    const sql = sqlOf(tx);
    const held = await sql.row(holdAccount, [amount, now, userId]);
    if (!held) return null;
    const id = randomUUID();
    await sql.run(insertHold, [id, userId, amount, now, expiresAt]);
    return id;
  });
}

/** A hold removed: whose it was and what it reserved (int8 as text). */
interface DroppedHoldRow {
  userId: number;
  amount: string;
}

/** Removes a hold (any user's: releases and the sweep). */
const deleteHold = statement<DroppedHoldRow, [holdId: string]>(
  'ledger.delete_hold',
  `delete from flow_holds where id = $1 returning user_id as "userId", amount::text as amount`,
);

/** Removes a hold of this user (a settlement names the user it charges). */
const deleteUsersHold = statement<DroppedHoldRow, [holdId: string, userId: number]>(
  'ledger.delete_users_hold',
  `delete from flow_holds where id = $1 and user_id = $2
   returning user_id as "userId", amount::text as amount`,
);

/** Gives a removed hold's reservation back to the account's spendable balance. */
const unholdAccount = statement<NoRow, [amount: bigint, now: Date, userId: number]>(
  'ledger.unhold_account',
  `update flow_accounts set held = held - $1::bigint, updated_at = $2 where user_id = $3`,
);

/** Removes a hold, returning what it reserved (null when it was already settled or swept). */
async function dropHold(
  em: EntityManager,
  holdId: string,
  now: Date,
  userId?: number,
): Promise<{ userId: number; amount: bigint } | null> {
  const sql = sqlOf(em);
  const hold =
    userId === undefined
      ? await sql.row(deleteHold, [holdId])
      : await sql.row(deleteUsersHold, [holdId, userId]);
  if (!hold) return null;
  const amount = BigInt(hold.amount);
  await sql.run(unholdAccount, [amount, now, hold.userId]);
  return { userId: hold.userId, amount };
}

/** Gives a hold back untouched (the call failed or cost nothing). */
export async function releaseHold(em: EntityManager, holdId: string, now: Date): Promise<void> {
  await em.transactional((tx) => dropHold(tx, holdId, now));
}

/**
 * Turns a hold into a debit of `amount` (≤ the hold; the rest goes back). Run inside the
 * settlement transaction. Returns null when the hold was gone (swept after expiry) and the
 * balance no longer covers the amount.
 */
export async function settleHold(
  em: EntityManager,
  holdId: string,
  userId: number,
  amount: bigint,
  move: Debit,
): Promise<LedgerRow | null> {
  const hold = await dropHold(em, holdId, move.now, userId);
  if (hold && amount > hold.amount) throw new RangeError('settlement exceeds its hold');
  if (amount === 0n) return null;
  return debitUser(em, userId, amount, move);
}

/** How many holds the sweep released. */
interface ReleasedRow {
  released: number;
}

/**
 * Deletes the holds expired at `$1` and gives their reservations back, one UPDATE per
 * account; how many holds it released.
 */
const releaseExpired = statement<ReleasedRow, [now: Date]>(
  'ledger.release_expired_holds',
  `with expired as (
     delete from flow_holds where expires_at <= $1::timestamptz returning user_id, amount
   ), totals as (
     select user_id, sum(amount) as amount, count(*) as holds from expired group by user_id
   ), updated as (
     update flow_accounts a set held = a.held - t.amount, updated_at = $1
     from totals t where a.user_id = t.user_id returning t.holds
   )
   select coalesce(sum(holds), 0)::int as released from updated`,
);

/** Releases holds whose call never settled (a crashed process). Returns how many. */
export async function releaseExpiredHolds(em: EntityManager, now: Date): Promise<number> {
  return em.transactional(async (tx) => {
    const row = await sqlOf(tx).row(releaseExpired, [now]);
    return row?.released ?? 0;
  });
}
