import type { EntityManager } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import type { Log, PublicClient } from 'viem';
import { erc20Events } from '../../shared/chain/events';
import type { Config } from '../../shared/config';
import type { Logger } from '../../shared/logger';
import { signalLifecycle } from '../../shared/payments/lifecycle-signal';
import { confirmUsdtTransfer } from '../../shared/payments/usdt';
import { sqlOf, statement } from '../../shared/db/sql';

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

type NoRow = Record<string, never>;

/** A recorded transfer to the treasury, as settling it needs it. */
interface UnsettledRow {
  /** int8, a string. */
  blockNumber: string;
  logIndex: number;
  txHash: string;
  fromAddress: string;
  /** Base units, an integer string. */
  value: string;
  blockTime: Date;
}

/** Transfers settled per pass at most; the next pass takes the rest. */
const SETTLE_BATCH = 200;

/** A transfer a pass has to look at; settled ones are still owed a lifecycle signal. */
interface DueRow extends UnsettledRow {
  settled: boolean;
}

/** What a pass has to do: final transfers to settle, and settled ones still owed a signal. */
const dueTransfers = statement<DueRow, [chainId: number, safeBlock: number, limit: number]>(
  'treasury.due',
  `select block_number as "blockNumber", log_index as "logIndex", tx_hash as "txHash",
          from_address as "fromAddress", value::text as value, block_time as "blockTime",
          outcome is not null as settled
     from treasury_transfers
    where chain_id = $1 and ((outcome is null and block_number <= $2) or signal_due)
    order by block_number, log_index
    limit $3`,
);

/** A transfer's key: the log's chain, block and index. */
type TransferKey = [chainId: number, blockNumber: string, logIndex: number];

/** A row when the transfer is still open and now locked by this transaction. */
interface LockedRow {
  open: number;
}

/** Locks the transfer if it is still unsettled and nobody else holds it. */
const lockUnsettled = statement<LockedRow, TransferKey>(
  'treasury.lock_unsettled',
  `select 1 as open from treasury_transfers
    where chain_id = $1 and block_number = $2 and log_index = $3 and outcome is null
    for update skip locked`,
);

/** The transfer's outcome: the payment it confirmed, or `unmatched`. */
const settleTransfer = statement<
  NoRow,
  [
    outcome: 'confirmed' | 'unmatched',
    paymentId: string | null,
    signalDue: boolean,
    ...key: TransferKey,
  ]
>(
  'treasury.settle',
  `update treasury_transfers
      set outcome = $1, payment_id = $2, signal_due = $3, settled_at = now()
    where chain_id = $4 and block_number = $5 and log_index = $6`,
);

/** Signals no longer owed: the lifecycle applied the payment anyway. */
const clearAppliedSignals = statement<NoRow, [chainId: number]>(
  'treasury.clear_applied_signals',
  `update treasury_transfers t set signal_due = false
    where t.chain_id = $1 and t.signal_due
      and not exists (select 1 from payments p where p.id = t.payment_id and p.applied_at is null)`,
);

/** A confirmed subscription payment still owed its lifecycle signal. */
interface OwedSignalRow {
  /** int8, a string. */
  blockNumber: string;
  logIndex: number;
  paymentId: string;
  userId: number;
}

const owedSignals = statement<OwedSignalRow, [chainId: number]>(
  'treasury.owed_signals',
  `select t.block_number as "blockNumber", t.log_index as "logIndex",
          t.payment_id as "paymentId", p.user_id as "userId"
     from treasury_transfers t join payments p on p.id = t.payment_id
    where t.chain_id = $1 and t.signal_due
    order by t.block_number, t.log_index`,
);

const clearSignal = statement<NoRow, TransferKey>(
  'treasury.clear_signal',
  `update treasury_transfers set signal_due = false
    where chain_id = $1 and block_number = $2 and log_index = $3`,
);

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
  const due = await sqlOf(em).rows(dueTransfers, [chainId, safeBlock, SETTLE_BATCH]);
  if (due.length === 0) return;
  for (const row of due) {
    if (row.settled) continue;
    await settle(deps, em, chainId, row);
    deps.heartbeat?.();
  }
  await signalOwed(deps, em, chainId);
}

async function settle(deps: SettleDeps, em: EntityManager, chainId: number, row: UnsettledRow) {
  const key: TransferKey = [chainId, row.blockNumber, row.logIndex];
  const log = { chainId, txHash: row.txHash, logIndex: row.logIndex, value: row.value };
  const confirmed = await em.transactional(async (tx) => {
    const sql = sqlOf(tx);
    // A zombie attempt of the same pass may be settling it too: the first one decides.
    const open = await sql.row(lockUnsettled, key);
    if (!open) return undefined;
    const payment = await confirmUsdtTransfer(
      tx,
      {
        chainId,
        txHash: row.txHash,
        logIndex: row.logIndex,
        value: row.value,
        blockTime: row.blockTime,
      },
      new Date(),
    );
    await sql.run(settleTransfer, [
      payment ? 'confirmed' : 'unmatched',
      payment?.id ?? null,
      !!payment?.needsLifecycle,
      ...key,
    ]);
    return payment;
  });
  if (confirmed === undefined) return;
  if (confirmed === null) {
    // Money arrived that pays no invoice (a wrong amount, a late or a second payment): the
    // row stays in treasury_transfers for an operator to refund or credit by hand.
    deps.logger.warn(
      { ...log, from: row.fromAddress },
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
  const sql = sqlOf(em);
  await sql.run(clearAppliedSignals, [chainId]);
  const owed = await sql.rows(owedSignals, [chainId]);
  if (owed.length === 0) return;
  const temporal = deps.temporal;
  if (!temporal) {
    deps.logger.warn({ chainId, owed: owed.length }, 'usdt_bep20: lifecycle signals wait');
    return;
  }
  for (const row of owed) {
    try {
      await signalLifecycle({ temporal, config: deps.config }, row.userId, {
        paymentConfirmed: row.paymentId,
      });
    } catch (error) {
      deps.logger.error(
        { err: error, chainId, paymentId: row.paymentId },
        'usdt_bep20: subscription workflow not signalled; the pass is retried',
      );
      throw new Error(`subscription workflow of payment ${row.paymentId} not signalled`, {
        cause: error,
      });
    }
    await sql.run(clearSignal, [chainId, row.blockNumber, row.logIndex]);
    deps.heartbeat?.();
  }
}
