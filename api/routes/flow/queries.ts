import type { LedgerReason } from '../../../shared/db/entities/ledger-entry';
import { isoUtc, statement } from '../../../shared/db/sql';
import { keysetOrder } from '../../paging/keyset';

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

/** Lifetime totals by source, micro-FLOW as strings (int8). */
export interface BalanceRow {
  spendable: string;
  topUp: string;
  subscriptionGrant: string;
  creatorShare: string;
  holderRewards: string;
  freelance: string;
  quests: string;
  /** Top-ups credited within the settlement window (TOPUP_SETTLEMENT_HOURS). */
  unsettledTopups: string;
  recent: LedgerRow[];
}

/**
 * The deprecated balance record in one statement, hence one snapshot: the balance, the totals
 * and the recent entries agree with each other. The totals are the read model
 * `flow_ledger_totals` (its migration says what each source counts), one row by primary key
 * however long the ledger grows. Unsettled top-ups are the caller's `topup` entries inside the
 * settlement window: a range of the (user_id, created_at) index, bounded by the window.
 */
export const flowBalance = statement<
  BalanceRow,
  [userId: number, recent: number, settlementHours: number]
>(
  'flow.balance',
  `select
     coalesce((select balance - held from flow_accounts where user_id = $1), 0)::text as spendable,
     coalesce(t.top_up, 0)::text as "topUp",
     coalesce(t.subscription_grant, 0)::text as "subscriptionGrant",
     coalesce(t.creator_share, 0)::text as "creatorShare",
     coalesce(t.holder_rewards, 0)::text as "holderRewards",
     coalesce(t.freelance, 0)::text as freelance,
     coalesce(t.quests, 0)::text as quests,
     (select coalesce(sum(delta), 0) from ledger_entries
       where user_id = $1 and reason = 'topup' and delta > 0
         and created_at > now() - make_interval(secs => $3::float8 * 3600))::text
       as "unsettledTopups",
     (select coalesce(jsonb_agg(to_jsonb(entry) - 'at' order by entry.at desc, entry.id desc), '[]')
        from (select ${LEDGER_COLUMNS}, created_at as at
                from ledger_entries
               where user_id = $1
               order by created_at desc, id desc
               limit $2) as entry) as recent
   from (select $1::int as user_id) as caller
   left join flow_ledger_totals t on t.user_id = caller.user_id`,
);
