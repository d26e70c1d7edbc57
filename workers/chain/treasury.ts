import type { EntityManager } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import type { Log, PublicClient } from 'viem';
import { erc20Events } from '../../shared/chain/events';
import type { Config } from '../../shared/config';
import type { Logger } from '../../shared/logger';
import { signalLifecycle } from '../../shared/payments/lifecycle-signal';
import { confirmUsdtTransfer } from '../../shared/payments/usdt';
import { query } from './sql';

/**
 * `usdt_bep20` payments as the indexer sees them (docs/payments.md "usdt_bep20"). Every range
 * also reads the USDT token's `Transfer`s to the treasury (a topic filter on `to`, so not every
 * USDT transfer on the chain) and records them in `treasury_transfers` in the range's
 * transaction, where a reorganisation's rollback takes them back like every indexed row. Each
 * pass then settles the recorded transfers whose block has become final: the exact amount
 * confirms its invoice, any other amount is kept as `unmatched` for an operator. Confirming
 * only final blocks is what keeps a reorg from paying an invoice with a transfer that did not
 * happen.
 */

export interface TreasuryWatch {
  /** The USDT token (lowercase). */
  token: `0x${string}`;
  /** The treasury address (lowercase). */
  treasury: `0x${string}`;
}

/** What to watch on `chainId`: only the chain `usdt_bep20` is configured on. */
export function treasuryWatchOf(config: Config, chainId: number): TreasuryWatch | null {
  const usdt = config.payments.usdtBep20;
  if (!usdt || usdt.chainId !== chainId) return null;
  return {
    token: usdt.token.toLowerCase() as `0x${string}`,
    treasury: usdt.treasury.toLowerCase() as `0x${string}`,
  };
}

const [TRANSFER] = erc20Events;

/** The token's `Transfer`s to the treasury in the blocks `span` covers. */
export async function readTreasuryLogs(
  client: PublicClient,
  watch: TreasuryWatch,
  span: { fromBlock: bigint; toBlock: bigint },
): Promise<Log[]> {
  const logs = await client.getLogs({
    address: watch.token,
    event: TRANSFER,
    args: { to: watch.treasury },
    fromBlock: span.fromBlock,
    toBlock: span.toBlock,
  });
  return logs;
}

export interface SettleDeps {
  config: Config;
  logger: Logger;
  /** Absent in a pass run outside the worker: owed signals wait for a pass that has one. */
  temporal?: Client;
  heartbeat?: () => void;
}

interface Unsettled {
  block_number: string;
  log_index: number;
  tx_hash: string;
  from_address: string;
  value: string;
  block_time: Date | string;
}

/** Transfers settled per pass at most; the next pass takes the rest. */
const SETTLE_BATCH = 200;

/**
 * Settles the recorded transfers at or below `safeBlock` (final), oldest first, each in one
 * transaction with the payment it confirms; then signals the lifecycle for every confirmed
 * subscription payment still owed a signal. A signal that fails fails the pass: Temporal
 * retries it with backoff, and the retry signals what is still owed (`signal_due`).
 */
export async function settleTreasuryTransfers(
  deps: SettleDeps,
  em: EntityManager,
  chainId: number,
  safeBlock: number,
): Promise<void> {
  // One statement on a pass with nothing to do, which is nearly every pass.
  const due = await query<Unsettled & { settled: boolean }>(
    em,
    `select block_number, log_index, tx_hash, from_address, value::text as value, block_time,
            outcome is not null as settled
       from treasury_transfers
      where chain_id = ? and ((outcome is null and block_number <= ?) or signal_due)
      order by block_number, log_index
      limit ?`,
    [chainId, safeBlock, SETTLE_BATCH],
  );
  if (due.length === 0) return;
  for (const row of due) {
    if (row.settled) continue;
    await settle(deps, em, chainId, row);
    deps.heartbeat?.();
  }
  await signalOwed(deps, em, chainId);
}

async function settle(deps: SettleDeps, em: EntityManager, chainId: number, row: Unsettled) {
  const key = [chainId, row.block_number, row.log_index];
  const log = { chainId, txHash: row.tx_hash, logIndex: row.log_index, value: row.value };
  const confirmed = await em.transactional(async (tx) => {
    // A zombie attempt of the same pass may be settling it too: the first one decides.
    const [open] = await query(
      tx,
      `select 1 from treasury_transfers
        where chain_id = ? and block_number = ? and log_index = ? and outcome is null
        for update skip locked`,
      key,
    );
    if (!open) return undefined;
    const payment = await confirmUsdtTransfer(
      tx,
      {
        chainId,
        txHash: row.tx_hash,
        logIndex: row.log_index,
        value: row.value,
        blockTime: new Date(row.block_time),
      },
      new Date(),
    );
    await query(
      tx,
      `update treasury_transfers
          set outcome = ?, payment_id = ?, signal_due = ?, settled_at = now()
        where chain_id = ? and block_number = ? and log_index = ?`,
      [payment ? 'confirmed' : 'unmatched', payment?.id ?? null, !!payment?.needsLifecycle, ...key],
    );
    return payment;
  });
  if (confirmed === undefined) return;
  if (confirmed === null) {
    // Money arrived that pays no invoice (a wrong amount, a late or a second payment): the
    // row stays in treasury_transfers for an operator to refund or credit by hand.
    deps.logger.warn(
      { ...log, from: row.from_address },
      'usdt_bep20: a transfer to the treasury matches no invoice',
    );
    return;
  }
  deps.logger.info(
    { ...log, paymentId: confirmed.id, userId: confirmed.userId, newlyPaid: confirmed.newlyPaid },
    'usdt_bep20 payment confirmed',
  );
}

/**
 * Signals `subscription:<userId>` for each confirmed subscription payment not yet applied, once
 * per payment: `signal_due` is cleared after the signal, or when the lifecycle applied the
 * payment anyway (it applies unapplied paid payments whenever it starts).
 */
async function signalOwed(deps: SettleDeps, em: EntityManager, chainId: number) {
  await query(
    em,
    `update treasury_transfers t set signal_due = false
      where t.chain_id = ? and t.signal_due
        and not exists (select 1 from payments p where p.id = t.payment_id and p.applied_at is null)`,
    [chainId],
  );
  const owed = await query<{
    block_number: string;
    log_index: number;
    payment_id: string;
    user_id: number;
  }>(
    em,
    `select t.block_number, t.log_index, t.payment_id, p.user_id
       from treasury_transfers t join payments p on p.id = t.payment_id
      where t.chain_id = ? and t.signal_due
      order by t.block_number, t.log_index`,
    [chainId],
  );
  if (owed.length === 0) return;
  const temporal = deps.temporal;
  if (!temporal) {
    deps.logger.warn({ chainId, owed: owed.length }, 'usdt_bep20: lifecycle signals wait');
    return;
  }
  for (const row of owed) {
    try {
      await signalLifecycle({ temporal, config: deps.config }, row.user_id, {
        paymentConfirmed: row.payment_id,
      });
    } catch (error) {
      deps.logger.error(
        { err: error, chainId, paymentId: row.payment_id },
        'usdt_bep20: subscription workflow not signalled; the pass is retried',
      );
      throw new Error(`subscription workflow of payment ${row.payment_id} not signalled`, {
        cause: error,
      });
    }
    await query(
      em,
      `update treasury_transfers set signal_due = false
        where chain_id = ? and block_number = ? and log_index = ?`,
      [chainId, row.block_number, row.log_index],
    );
    deps.heartbeat?.();
  }
}
