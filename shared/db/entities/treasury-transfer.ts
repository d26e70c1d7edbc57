import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { logKey } from './chain-log-position';
import { Payment } from './payment';

export const TREASURY_TRANSFER_OUTCOMES = ['confirmed', 'unmatched'] as const;

/**
 * USDT `Transfer`s to the `usdt_bep20` treasury, as the chain indexer read them
 * (docs/payments.md "usdt_bep20"). Written in the range's transaction and rolled back with its
 * block like every indexed row; settled once the block is final: `confirmed` paid `payment`,
 * `unmatched` paid no invoice and waits for an operator. `signalDue`: the subscription
 * lifecycle is still owed its `paymentConfirmed` signal.
 */
export const TreasuryTransfer = defineEntity({
  name: 'TreasuryTransfer',
  tableName: 'treasury_transfers',
  indexes: [
    {
      name: 'treasury_transfers_unsettled_index',
      expression:
        'create index "treasury_transfers_unsettled_index" on "treasury_transfers" ("chain_id", "block_number", "log_index") where "outcome" is null',
    },
    {
      name: 'treasury_transfers_signal_due_index',
      expression:
        'create index "treasury_transfers_signal_due_index" on "treasury_transfers" ("chain_id", "block_number", "log_index") where "signal_due"',
    },
  ],
  properties: {
    ...logKey(),
    /** The USDT token (lowercase). */
    token: p.string().length(42),
    fromAddress: p.string().length(42),
    toAddress: p.string().length(42),
    value: p.decimal().columnType('numeric(78,0)'),
    /** Null until the block is final and the transfer settled. */
    outcome: p.enum([...TREASURY_TRANSFER_OUTCOMES]).nullable(),
    payment: () => p.manyToOne(Payment).nullable().deleteRule('set null'),
    signalDue: p.boolean().default(false),
    settledAt: p.datetime(3).nullable(),
  },
});

export type TreasuryTransfer = InferEntity<typeof TreasuryTransfer>;
