import type { LedgerReason } from '../../../shared/db/entities/ledger-entry';
import { isoUtc, statement } from '../../../shared/db/sql';
import { keysetOrder } from '../../plugins/keyset';

/** The FLOW reads (decisions "Hot reads"): one prepared statement per response. */

/** A ledger entry as the wire shows it, amounts still micro-FLOW (int8, as strings). */
export interface LedgerRow {
  id: string;
  delta: string;
  balanceAfter: string;
  reason: LedgerReason;
  refType: string;
  refId: string;
  metadata: Record<string, unknown>;
  /** ISO 8601, as the wire writes it. */
  createdAt: string;
}

/** Amounts as text also inside JSON, where int8 would become a lossy number. */
const LEDGER_COLUMNS = `id, delta::text as "delta", balance_after::text as "balanceAfter", reason,
       ref_type as "refType", ref_id as "refId", metadata,
       ${isoUtc('created_at')} as "createdAt"`;

/** Newest first (index `ledger_entries (user_id, created_at, id)`). */
export const LEDGER_ORDER = keysetOrder('desc', [
  { column: 'created_at', type: 'timestamptz', field: 'createdAt' },
  { column: 'id', type: 'uuid', field: 'id' },
]);

export const ledgerPage = statement<
  LedgerRow,
  [
    userId: number,
    reason: LedgerReason | null,
    from: Date | null,
    to: Date | null,
    ...after: string[],
    fetch: number,
  ]
>(
  'flow.ledger_page',
  `select ${LEDGER_COLUMNS}
     from ledger_entries
    where user_id = $1
      and ($2::text is null or reason = $2)
      and ($3::timestamptz is null or created_at >= $3)
      and ($4::timestamptz is null or created_at < $4)
      and ${LEDGER_ORDER.after(5)}
    order by ${LEDGER_ORDER.orderBy}
    limit $${5 + LEDGER_ORDER.arity}`,
);

/** Lifetime totals by source, micro-FLOW as strings (numeric sums). */
export interface BalanceRow {
  spendable: string;
  top_up: string;
  subscription_grant: string;
  creator_share: string;
  holder_rewards: string;
  freelance: string;
  quests: string;
  recent: LedgerRow[];
}

/**
 * The deprecated balance record in one statement, hence one snapshot: the balance, the totals
 * and the recent entries agree with each other. Agent earnings are positive `call` rows;
 * holder rewards and freelance pay are told apart by their refType, so they never count twice.
 */
export const flowBalance = statement<BalanceRow, [userId: number, recent: number]>(
  'flow.balance',
  `select
     coalesce((select balance - held from flow_accounts where user_id = $1), 0) as spendable,
     coalesce(sum(delta) filter (where reason = 'topup' and delta > 0), 0) as top_up,
     coalesce(sum(delta) filter (where reason = 'grant'), 0) as subscription_grant,
     coalesce(sum(delta) filter (where reason = 'call' and delta > 0
       and ref_type not in ('holder_reward', 'freelance')), 0) as creator_share,
     coalesce(sum(delta) filter (where ref_type = 'holder_reward'), 0) as holder_rewards,
     coalesce(sum(delta) filter (where ref_type = 'freelance'), 0) as freelance,
     coalesce(sum(delta) filter (where reason = 'quest'), 0) as quests,
     (select coalesce(jsonb_agg(to_jsonb(entry) - 'at' order by entry.at desc, entry.id desc), '[]')
        from (select ${LEDGER_COLUMNS}, created_at as at
                from ledger_entries
               where user_id = $1
               order by created_at desc, id desc
               limit $2) as entry) as recent
   from ledger_entries where user_id = $1`,
);
