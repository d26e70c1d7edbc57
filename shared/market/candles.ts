/**
 * Candle buckets (docs/chain.md "Market data"): `date_bin` of block time from Monday
 * 1970-01-05 00:00 UTC, so weeks start on Monday and every shorter stride is aligned to UTC
 * midnight. The migration that created `token_candles` uses the same origin.
 */
export const CANDLE_ORIGIN_SQL = `timestamptz '1970-01-05 00:00:00+00'`;

/** Resolutions by name, in seconds; `15s` is computed from the trades on read. */
export const RESOLUTIONS = {
  '15s': 15,
  '1m': 60,
  '5m': 300,
  '15m': 900,
  '1h': 3600,
  '4h': 14400,
  '1d': 86400,
  '1w': 604800,
} as const;

export type Resolution = keyof typeof RESOLUTIONS;

/** The origin of every bucket, in Unix seconds (Monday 1970-01-05 00:00 UTC). */
export const CANDLE_ORIGIN_S = 345_600;

/** The start of the bucket of `resolution` seconds holding the Unix second `at`. */
export function bucketOf(at: number, resolution: number): number {
  return CANDLE_ORIGIN_S + Math.floor((at - CANDLE_ORIGIN_S) / resolution) * resolution;
}

/** The first bucket start at or after `at`. */
export function bucketAtOrAfter(at: number, resolution: number): number {
  return CANDLE_ORIGIN_S + Math.ceil((at - CANDLE_ORIGIN_S) / resolution) * resolution;
}
