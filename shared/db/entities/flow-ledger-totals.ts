import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { User } from './user';

/**
 * A user's lifetime ledger totals by source, in micro-FLOW: the read model behind the
 * deprecated `GET /me/flow-balance` breakdown, so that read does not sum a ledger that grows
 * with every call. Kept exact by statement-level triggers on `ledger_entries` (migration
 * `Migration20261126000000_flow_ledger_totals`), which also define what each source counts.
 */
export const FlowLedgerTotals = defineEntity({
  name: 'FlowLedgerTotals',
  tableName: 'flow_ledger_totals',
  properties: {
    user: () => p.oneToOne(User).primary().deleteRule('cascade'),
    topUp: p.bigint().default(0),
    subscriptionGrant: p.bigint().default(0),
    creatorShare: p.bigint().default(0),
    holderRewards: p.bigint().default(0),
    freelance: p.bigint().default(0),
    quests: p.bigint().default(0),
  },
});

export type FlowLedgerTotals = InferEntity<typeof FlowLedgerTotals>;
