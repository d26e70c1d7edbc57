/**
 * Candle buckets (docs/chain.md "Market data"): `date_bin` of block time from Monday
 * 1970-01-05 00:00 UTC, so weeks start on Monday and every shorter stride is aligned to UTC
 * midnight. The migration that created `token_candles` uses the same origin.
 */
export const CANDLE_ORIGIN_SQL = `timestamptz '1970-01-05 00:00:00+00'`;
