/**
 * FLOW amounts are integer micro-FLOW (6 decimals) in code and storage (docs/spec/contract.md §1).
 * Wire values are numbers, except `spend_limit_flow`, a decimal string.
 */

export const MICRO_PER_FLOW = 1_000_000n;
/** Largest FLOW amount accepted from a client (far beyond any real balance, still exact). */
export const MAX_FLOW = 1_000_000_000_000;

const DECIMAL = /^(\d+)(?:\.(\d*))?$/;

/**
 * Parses a non-negative decimal string or number into micro-FLOW, keeping at most 6
 * decimals (more are rounded down). Returns null when the value is not such an amount.
 */
export function parseFlow(value: string | number): bigint | null {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) return null;
    // String() is exact for the shortest round-trip form; tiny values use exponent form.
    text = /e/i.test(String(value)) ? value.toFixed(20) : String(value);
  } else {
    text = value.trim();
  }
  const match = DECIMAL.exec(text);
  if (!match?.[1]) return null;
  const fraction = (match[2] ?? '').slice(0, 6).padEnd(6, '0');
  const micro = BigInt(match[1]) * MICRO_PER_FLOW + BigInt(fraction);
  return micro > BigInt(MAX_FLOW) * MICRO_PER_FLOW ? null : micro;
}

/** micro-FLOW as the shortest exact decimal string: 1500000n → "1.5". */
export function formatFlow(micro: bigint): string {
  const sign = micro < 0n ? '-' : '';
  const abs = micro < 0n ? -micro : micro;
  const whole = abs / MICRO_PER_FLOW;
  const fraction = (abs % MICRO_PER_FLOW).toString().padStart(6, '0').replace(/0+$/, '');
  return `${sign}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** micro-FLOW as a wire number (exact for every amount below 2^53 micro-FLOW). */
export function flowNumber(micro: bigint): number {
  return Number(formatFlow(micro));
}
