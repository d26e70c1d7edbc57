import { randomUUID } from 'node:crypto';
import type { EntityManager } from '../db/orm';
import type { LedgerReason } from '../db/entities/ledger-entry';
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

async function ensureAccount(em: EntityManager, userId: number, now: Date): Promise<void> {
  await em.execute(
    `insert into flow_accounts (user_id, balance, held, updated_at) values (?, 0, 0, ?)
     on conflict (user_id) do nothing`,
    [userId, now],
  );
}

async function writeEntry(
  em: EntityManager,
  account: { userId: number } | { tokenId: string },
  delta: bigint,
  balanceAfter: bigint,
  move: Movement,
): Promise<LedgerRow> {
  const id = randomUUID();
  await em.execute(
    `insert into ledger_entries
       (id, user_id, token_id, delta, balance_after, reason, ref_type, ref_id, metadata, created_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?)`,
    [
      id,
      'userId' in account ? account.userId : null,
      'tokenId' in account ? account.tokenId : null,
      delta.toString(),
      balanceAfter.toString(),
      move.reason,
      move.refType,
      move.refId,
      JSON.stringify(move.metadata ?? {}),
      move.now,
    ],
  );
  return { id, delta, balanceAfter };
}

/** Adds `amount` (> 0) to a user's balance. */
export async function creditUser(
  em: EntityManager,
  userId: number,
  amount: bigint,
  move: Movement,
): Promise<LedgerRow> {
  if (amount <= 0n) throw new RangeError('credit must be positive');
  await ensureAccount(em, userId, move.now);
  const [row] = await em.execute<{ balance: string }[]>(
    `update flow_accounts set balance = balance + ?, updated_at = ? where user_id = ?
     returning balance`,
    [amount.toString(), move.now, userId],
  );
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

/** Takes `amount` (> 0) from what a user can spend, or returns null when it is not there. */
export async function debitUser(
  em: EntityManager,
  userId: number,
  amount: bigint,
  move: Debit,
): Promise<LedgerRow | null> {
  if (amount <= 0n) throw new RangeError('debit must be positive');
  const rows = await em.execute<{ balance: string }[]>(
    `update flow_accounts set balance = balance - ?, updated_at = ?
     where user_id = ? and balance - held >= ? returning balance`,
    [amount.toString(), move.now, userId, amount.toString()],
  );
  const row = rows[0];
  if (!row) return null;
  const entry = await writeEntry(em, { userId }, -amount, BigInt(row.balance), move);
  await noteLowBalance(em, userId, entry, move.lowBalanceThreshold);
  return entry;
}

/** Accrues `amount` (> 0) to a token's holder-reward pool. */
export async function creditHolderPool(
  em: EntityManager,
  tokenId: string,
  amount: bigint,
  move: Movement,
): Promise<LedgerRow> {
  if (amount <= 0n) throw new RangeError('credit must be positive');
  const [row] = await em.execute<{ pool: string }[]>(
    `update tokens set holder_reward_pool = holder_reward_pool + ? where id = ?
     returning holder_reward_pool as pool`,
    [amount.toString(), tokenId],
  );
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
  const [row] = await em.execute<{ pool: string }[]>(
    `update tokens set holder_reward_pool = holder_reward_pool - ?
      where id = ? and holder_reward_pool >= ?
     returning holder_reward_pool as pool`,
    [amount.toString(), tokenId, amount.toString()],
  );
  if (!row) return null;
  return writeEntry(em, { tokenId }, -amount, BigInt(row.pool), move);
}

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
    const rows = await tx.execute<{ user_id: number }[]>(
      `update flow_accounts set held = held + ?, updated_at = ?
       where user_id = ? and balance - held >= ? returning user_id`,
      [amount.toString(), now, userId, amount.toString()],
    );
    if (rows.length === 0) return null;
    const id = randomUUID();
    await tx.execute(
      `insert into flow_holds (id, user_id, amount, created_at, expires_at) values (?, ?, ?, ?, ?)`,
      [id, userId, amount.toString(), now, expiresAt],
    );
    return id;
  });
}

/** Removes a hold, returning what it reserved (null when it was already settled or swept). */
async function dropHold(
  em: EntityManager,
  holdId: string,
  now: Date,
  userId?: number,
): Promise<{ userId: number; amount: bigint } | null> {
  const [hold] = await em.execute<{ user_id: number; amount: string }[]>(
    userId === undefined
      ? `delete from flow_holds where id = ? returning user_id, amount`
      : `delete from flow_holds where id = ? and user_id = ? returning user_id, amount`,
    userId === undefined ? [holdId] : [holdId, userId],
  );
  if (!hold) return null;
  await em.execute(`update flow_accounts set held = held - ?, updated_at = ? where user_id = ?`, [
    hold.amount,
    now,
    hold.user_id,
  ]);
  return { userId: hold.user_id, amount: BigInt(hold.amount) };
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

/** Releases holds whose call never settled (a crashed process). Returns how many. */
export async function releaseExpiredHolds(em: EntityManager, now: Date): Promise<number> {
  return em.transactional(async (tx) => {
    const rows = await tx.execute<{ released: string }[]>(
      `with expired as (
         delete from flow_holds where expires_at <= ? returning user_id, amount
       ), totals as (
         select user_id, sum(amount) as amount, count(*) as holds from expired group by user_id
       ), updated as (
         update flow_accounts a set held = a.held - t.amount, updated_at = ?
         from totals t where a.user_id = t.user_id returning t.holds
       )
       select coalesce(sum(holds), 0) as released from updated`,
      [now, now],
    );
    return Number(rows[0]?.released ?? 0);
  });
}
