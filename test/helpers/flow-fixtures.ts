import { randomUUID } from 'node:crypto';
import type { App } from '../../api/app';
import type { LedgerReason } from '../../shared/db/entities/ledger-entry';
import type { SignedIn } from './auth';
import type { TestApp } from './context';

/**
 * FLOW over HTTP as the split flow-*.test.ts files drive them: the internal token their world
 * accepts, the wire shapes, credits and ledger pages through the API, rows written directly.
 */

export const INTERNAL_TOKEN = 'internal-token-for-flow-tests-0123456789';
export const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
export const GONE =
  'Payouts were removed: withdrawing FLOW means selling it from your wallet (see /me/flow-onchain)';

export interface Entry {
  id: string;
  delta: number;
  balanceAfter: number;
  reason: LedgerReason;
  refType: string;
  refId: string;
  metadata: Record<string, unknown>;
  createdAt: string;
}
export interface Page {
  items: Entry[];
  nextCursor: string | null;
}
export interface Credited {
  entry: Entry;
  balance: number;
}
export interface BalanceRecord {
  balance: number;
  withdrawableFlow: number;
  breakdown: Record<string, number>;
  recentLedger: Entry[];
}
export type Reply = Awaited<ReturnType<App['inject']>>;

export const idsOf = (response: Reply) => response.json<Page>().items.map((item) => item.id);

/** The helpers of one test file, bound to its world (`INTERNAL_TOKENS: INTERNAL_TOKEN`). */
export function flowFixtures(test: TestApp) {
  function credit(body: Record<string, unknown>, headers: Record<string, string> = {}) {
    return test.app.inject({
      method: 'POST',
      url: '/internal/flow/credit',
      headers: { authorization: `Bearer ${INTERNAL_TOKEN}`, ...headers },
      payload: body,
    });
  }

  async function credited(userId: number, amountFlow: number | string, reason = 'topup') {
    const response = await credit({ userId, amountFlow, reason, refId: randomUUID() });
    if (response.statusCode !== 201) throw new Error(`credit: ${response.body}`);
    return response.json<Credited>();
  }

  function ledger(session: SignedIn, query: Record<string, string | number> = {}) {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) search.set(name, String(value));
    return test.app.inject({
      method: 'GET',
      url: `/ledger?${search.toString()}`,
      headers: { cookie: session.cookie },
    });
  }

  async function balanceOf(userId: number): Promise<string> {
    const [row] = await test.ctx.sql<{ balance: string }>(
      'select balance from flow_accounts where user_id = $1',
      [userId],
    );
    return row?.balance ?? 'none';
  }

  /** Ledger rows written directly, at chosen instants (micro-FLOW deltas). */
  async function insertRows(
    userId: number,
    rows: { at: Date; delta?: number; reason?: LedgerReason; refType?: string }[],
  ): Promise<string[]> {
    const ids: string[] = [];
    for (const row of rows) {
      const id = randomUUID();
      await test.ctx.sql(
        `insert into ledger_entries (id, user_id, delta, balance_after, reason, ref_type, ref_id,
           metadata, created_at) values ($1, $2, $3, 0, $4, $5, $6, '{}', $7)`,
        [
          id,
          userId,
          row.delta ?? 1_000_000,
          row.reason ?? 'topup',
          row.refType ?? 'test',
          id,
          row.at,
        ],
      );
      ids.push(id);
    }
    return ids;
  }

  return { credit, credited, ledger, balanceOf, insertRows };
}
