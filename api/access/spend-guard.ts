import type { EntityManager } from '../../shared/db/orm';
import { epochMs, sqlOf, statement } from '../../shared/db/sql';
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
 * The spend cap of API keys (docs/spec/contract.md §5), called by the services that charge
 * FLOW inside their own transactions: the key's reservation commits with the hold on the
 * caller's balance (or with the debit itself), and its settlement with the settlement debit,
 * so the cap and the balance move together or not at all. A charge is reserved against the
 * key's current period with one conditional UPDATE in PostgreSQL: the row lock serialises
 * concurrent charges, the WHERE refuses any charge that would take the period above the cap,
 * and a charge in a new period starts the count from zero (UTC rollover). After the call the
 * reservation is settled at the real cost (possibly 0, a release).
 *
 * Lock order: a transaction that charges takes the key's row before the caller's account row
 * (reserve, settle and release alike), so two charges of one caller never wait on each other
 * in a cycle.
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

/**
 * What a request charged its API key, as the service settled it: the cost and the key's spend
 * after it (the `X-FLOW-*` headers of the response).
 */
export interface KeyCharge {
  cost: bigint;
  spend: SpendState;
}

/** A key's spend columns as stored (int8 as text, the period start as epoch milliseconds). */
interface GuardRow {
  spendUsed: string;
  spendLimit: string | null;
  spendPeriod: SpendPeriod;
  spendPeriodStartMs: number;
}

const GUARD_COLUMNS = `spend_used as "spendUsed", spend_limit as "spendLimit",
  spend_period as "spendPeriod", ${epochMs('spend_period_start')} as "spendPeriodStartMs"`;

/** The start of each period containing `now`, in `SPEND_PERIODS` order: `$1..$4`. */
type PeriodStarts = [day: Date, week: Date, month: Date, forever: Date];

function periodStarts(now: Date): PeriodStarts {
  return SPEND_PERIODS.map((period) => periodStart(period, now)) as PeriodStarts;
}

/** The start of the key's current period, chosen in SQL from its (current) `spend_period`. */
const CURRENT_START = `(case spend_period ${SPEND_PERIODS.map(
  (period, i) => `when '${period}' then $${i + 1}::timestamptz`,
).join(' ')} end)`;
/** The key's use in its current period: a counter of an earlier period counts as nothing. */
const USED_IN_PERIOD = `(case when spend_period_start = ${CURRENT_START} then spend_used else 0 end)`;
const COST = `$${SPEND_PERIODS.length + 1}::bigint`;
const KEY_ID = `$${SPEND_PERIODS.length + 2}::uuid`;

/**
 * Reserves a cost on the key's current period, starting it from zero after a rollover; no row
 * when the cap would be passed. The row lock serialises concurrent reservations of one key.
 */
const reserveStatement = statement<GuardRow, [...PeriodStarts, cost: bigint, keyId: string]>(
  'spend.reserve',
  `update api_keys set
     spend_used = ${USED_IN_PERIOD} + ${COST},
     spend_period_start = ${CURRENT_START}
   where id = ${KEY_ID} and (spend_limit is null or ${USED_IN_PERIOD} + ${COST} <= spend_limit)
   returning ${GUARD_COLUMNS}`,
);

/** Gives back part of a reservation, unless its period has rolled over meanwhile. */
const releaseStatement = statement<
  Record<string, never>,
  [release: bigint, keyId: string, periodStart: Date]
>(
  'spend.release',
  `update api_keys set spend_used = greatest(spend_used - $1::bigint, 0)
   where id = $2 and spend_period_start = $3`,
);

/** The key's spend as stored. */
const readStatement = statement<GuardRow, [keyId: string]>(
  'spend.read',
  `select ${GUARD_COLUMNS} from api_keys where id = $1`,
);

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
      spendPeriod: row.spendPeriod,
      spendLimit: row.spendLimit === null ? null : BigInt(row.spendLimit),
      spendUsed: BigInt(row.spendUsed),
      spendPeriodStart: new Date(row.spendPeriodStartMs),
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
  const row = await sqlOf(em).row(reserveStatement, [...periodStarts(now), cost, keyId]);
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
  await release(em, reservation, reservation.cost - actualCost);
  return (await readSpend(em, reservation.keyId, now)) ?? reservation;
}

/** Gives a whole reservation back (the charge failed), unless its period has rolled over. */
export async function releaseSpend(em: EntityManager, reservation: SpendReservation) {
  await release(em, reservation, reservation.cost);
}

async function release(em: EntityManager, reservation: SpendReservation, amount: bigint) {
  if (amount <= 0n) return;
  await sqlOf(em).run(releaseStatement, [amount, reservation.keyId, reservation.periodStart]);
}

export async function readSpend(
  em: EntityManager,
  keyId: string,
  now = new Date(),
): Promise<SpendState | null> {
  const row = await sqlOf(em).row(readStatement, [keyId]);
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
