import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Token } from './token';
import { User } from './user';

export const LEDGER_REASONS = ['topup', 'call', 'grant', 'payout', 'refund', 'quest'] as const;
export type LedgerReason = (typeof LEDGER_REASONS)[number];

/**
 * One FLOW movement (micro-FLOW, negative for spend), written in the same transaction as the
 * balance it changes. It belongs to a user's account or to a token's holder-reward pool.
 * `balanceAfter` is that account's balance right after the movement.
 */
export const LedgerEntry = defineEntity({
  name: 'LedgerEntry',
  tableName: 'ledger_entries',
  indexes: [
    { properties: ['user', 'createdAt', 'id'] },
    { properties: ['token', 'createdAt'] },
    {
      name: 'ledger_entries_credit_ref_unique',
      expression:
        'create unique index "ledger_entries_credit_ref_unique" on "ledger_entries" ("ref_id") where "ref_type" = \'credit\'',
    },
  ],
  checks: [
    {
      name: 'ledger_entries_one_account',
      expression: '(user_id is null) <> (token_id is null)',
    },
  ],
  properties: {
    id: p.uuid().primary(),
    user: () => p.manyToOne(User).nullable().deleteRule('cascade'),
    token: () => p.manyToOne(Token).nullable().deleteRule('cascade'),
    delta: p.bigint(),
    balanceAfter: p.bigint(),
    reason: p.enum([...LEDGER_REASONS]),
    refType: p.string().length(32),
    refId: p.string().length(255),
    metadata: p.json<Record<string, unknown>>(),
    createdAt: p.datetime(3),
  },
});

export type LedgerEntry = InferEntity<typeof LedgerEntry>;
