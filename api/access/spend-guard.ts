import type { EntityManager } from '../../shared/db/orm';
import { AppError } from '../../shared/errors';
import { formatFlow } from '../../shared/domain/flow';
import {
  periodEnd,
  periodStart,
  SPEND_PERIODS,
  spentInPeriod,
  type SpendPeriod,
} from '../../shared/domain/spend-period';

/**
 * The spend guard every charged endpoint calls (docs/spec/contract.md §5). A charge is reserved against
 * the key's current period with one conditional UPDATE in PostgreSQL: the row lock
 * serialises concurrent charges, the WHERE refuses any charge that would take the period
 * above the cap, and a charge in a new period starts the count from zero (UTC rollover).
 * After the call the reservation is settled at the real cost (possibly 0, a release).
 */

export interface SpendState {
  used: bigint;
  limit: bigint | null;
  period: SpendPeriod;
  periodStart: Date;
  /** Start of the next period; null for `forever`. */
  resetsAt: Date | null;
}

export interface SpendReservation extends SpendState {
  keyId: string;
  cost: bigint;
}

interface GuardRow {
  spend_used: string;
  spend_limit: string | null;
  spend_period: SpendPeriod;
  spend_period_start: Date;
}

/** The start of the key's current period, chosen in SQL from its (current) `spend_period`. */
function currentStartSql(now: Date): { sql: string; params: Date[] } {
  const cases = SPEND_PERIODS.map((period) => `when '${period}' then ?::timestamptz`).join(' ');
  return {
    sql: `(case spend_period ${cases} end)`,
    params: SPEND_PERIODS.map((period) => periodStart(period, now)),
  };
}

/** A key's spend as stored: the counter and the start of the period it belongs to. */
export interface StoredSpend {
  spendPeriod: SpendPeriod;
  /** Absent or null: no cap. */
  spendLimit?: bigint | null;
  spendUsed: bigint;
  spendPeriodStart: Date;
}

/**
 * The key's spend state at `now`, the one place it is derived from what is stored (the guard,
 * the `X-FLOW-*` headers of a cached credential, the key listing): a counter of an earlier
 * period counts as nothing, and the period is the one containing `now`.
 */
export function spendState(key: StoredSpend, now: Date): SpendState {
  return {
    used: spentInPeriod(
      key.spendPeriod,
      { used: key.spendUsed, periodStart: key.spendPeriodStart },
      now,
    ),
    limit: key.spendLimit ?? null,
    period: key.spendPeriod,
    periodStart: periodStart(key.spendPeriod, now),
    resetsAt: periodEnd(key.spendPeriod, now),
  };
}

function stateOf(row: GuardRow, now: Date): SpendState {
  return spendState(
    {
      spendPeriod: row.spend_period,
      spendLimit: row.spend_limit === null ? null : BigInt(row.spend_limit),
      spendUsed: BigInt(row.spend_used),
      spendPeriodStart: new Date(row.spend_period_start),
    },
    now,
  );
}

/** Reserves `cost` micro-FLOW on the key, or throws 402 `spend_limit_reached`. */
export async function reserveSpend(
  em: EntityManager,
  keyId: string,
  cost: bigint,
  now = new Date(),
): Promise<SpendReservation> {
  if (cost < 0n) throw new RangeError('cost must not be negative');
  if (cost === 0n) {
    // Free requests pass even when the cap is used up or was lowered below the use.
    const state = await readSpend(em, keyId, now);
    if (!state) throw new Error(`api key ${keyId} does not exist`);
    return { keyId, cost, ...state };
  }
  const current = currentStartSql(now);
  const usedInPeriod = `(case when spend_period_start = ${current.sql} then spend_used else 0 end)`;
  const rows = await em.execute<GuardRow[]>(
    `update api_keys set
       spend_used = ${usedInPeriod} + ?,
       spend_period_start = ${current.sql}
     where id = ? and (spend_limit is null or ${usedInPeriod} + ? <= spend_limit)
     returning spend_used, spend_limit, spend_period, spend_period_start`,
    [...current.params, cost, ...current.params, keyId, ...current.params, cost],
  );
  const [row] = rows;
  if (row) return { keyId, cost, ...stateOf(row, now) };

  const state = await readSpend(em, keyId, now);
  if (!state) throw new Error(`api key ${keyId} does not exist`);
  const left = state.limit === null ? 0n : state.limit - state.used;
  throw new AppError(
    'spend_limit_reached',
    `This API key's FLOW spend cap is reached: ${formatFlow(state.used)} of ` +
      `${formatFlow(state.limit ?? 0n)} used this ${state.period}, ${formatFlow(left)} left, ` +
      `this call costs ${formatFlow(cost)}`,
    spendHeaders(state, 0n),
  );
}

/**
 * Settles a reservation at the real cost (at most the reserved one): the difference is
 * released, unless the period has rolled over meanwhile (then nothing is left to release).
 */
export async function settleSpend(
  em: EntityManager,
  reservation: SpendReservation,
  actualCost: bigint,
  now = new Date(),
): Promise<SpendState> {
  if (actualCost < 0n || actualCost > reservation.cost) {
    throw new RangeError('actual cost must be between 0 and the reserved cost');
  }
  const release = reservation.cost - actualCost;
  if (release > 0n) {
    await em.execute(
      `update api_keys set spend_used = greatest(spend_used - ?, 0)
       where id = ? and spend_period_start = ?`,
      [release, reservation.keyId, reservation.periodStart],
    );
  }
  return (await readSpend(em, reservation.keyId, now)) ?? reservation;
}

export async function readSpend(
  em: EntityManager,
  keyId: string,
  now = new Date(),
): Promise<SpendState | null> {
  const [row] = await em.execute<GuardRow[]>(
    'select spend_used, spend_limit, spend_period, spend_period_start from api_keys where id = ?',
    [keyId],
  );
  return row ? stateOf(row, now) : null;
}

/** The `X-FLOW-*` headers of a key request (spec Limits, docs/spec/contract.md §5). */
export function spendHeaders(state: SpendState, cost: bigint): Record<string, string> {
  const headers: Record<string, string> = {
    'x-flow-cost': formatFlow(cost),
    'x-flow-period-used': formatFlow(state.used),
  };
  if (state.limit !== null) headers['x-flow-period-limit'] = formatFlow(state.limit);
  if (state.resetsAt) headers['x-flow-period-reset'] = state.resetsAt.toISOString();
  return headers;
}
