import { z } from 'zod';
import {
  RESOLUTIONS,
  bucketAtOrAfter,
  bucketOf,
  type Resolution,
} from '../../../shared/market/candles';

/** At most this many bars per answer, and in a `from`..`to` range (docs/spec/contract.md §13). */
export const MAX_BARS = 1500;

const unixSeconds = z.coerce
  .number({ error: 'must be Unix seconds (an integer)' })
  .int({ error: 'must be Unix seconds (an integer)' })
  .min(0, { error: 'must be 0 or more' })
  .max(1e11, { error: 'must be Unix seconds, not milliseconds' });

const resolutionNames = Object.keys(RESOLUTIONS) as [Resolution, ...Resolution[]];

export const candlesQuery = z
  .object({
    resolution: z
      .enum(resolutionNames, { error: `must be one of ${resolutionNames.join(', ')}` })
      .describe('Bar width; buckets start at UTC boundaries of block time, weeks on Monday'),
    from: unixSeconds.optional().describe('The first bar’s earliest start (inclusive)'),
    to: unixSeconds
      .optional()
      .describe('Bars start before this Unix second (exclusive); now by default'),
    countback: z.coerce
      .number({ error: 'must be an integer from 1 to 1500' })
      .int({ error: 'must be an integer from 1 to 1500' })
      .min(1, { error: 'must be an integer from 1 to 1500' })
      .max(MAX_BARS, { error: 'must be an integer from 1 to 1500' })
      .optional()
      .describe('That many bars ending at `to`, instead of those from `from`'),
    fill: z
      .enum(['none', 'previous'], { error: 'must be none or previous' })
      .default('none')
      .describe('none: only buckets with trades; previous: empty buckets carry the last close'),
  })
  .transform((query) => ({ ...query, to: query.to ?? Math.floor(Date.now() / 1000) }))
  .superRefine((query, ctx) => {
    const seconds = RESOLUTIONS[query.resolution];
    if (query.countback === undefined) {
      if (query.from === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['from'],
          message: 'is required unless countback is given',
        });
        return;
      }
      if (query.from >= query.to) {
        ctx.addIssue({ code: 'custom', path: ['from'], message: 'must be before to' });
        return;
      }
      const bars =
        (bucketOf(query.to - 1, seconds) - bucketAtOrAfter(query.from, seconds)) / seconds + 1;
      if (bars > MAX_BARS) {
        ctx.addIssue({
          code: 'custom',
          path: ['from'],
          message: `the range holds ${bars} ${query.resolution} bars, more than ${MAX_BARS}; narrow it or use countback`,
        });
      }
    }
  });

export type CandlesInput = z.output<typeof candlesQuery> & { slug: string };

const decimals = z
  .array(z.string())
  .describe('Decimal strings in whole units, all 18 decimals kept');

export const candlesSchema = z
  .object({
    s: z
      .enum(['ok', 'no_data'])
      .describe('no_data: the range holds no bar (see nextTime); the arrays are then empty'),
    resolution: z.enum(resolutionNames),
    quoteSymbol: z
      .enum(['VIRTUAL', 'USDT'])
      .describe('The unit of prices and vQuote: the curve’s payment token or the pool’s USDT'),
    t: z.array(z.number().int()).describe('Each bar’s start, Unix seconds, oldest first'),
    o: decimals.describe('Open: the first trade’s spot price before it'),
    h: decimals.describe('High: the highest spot price before or after a trade of the bar'),
    l: decimals.describe('Low'),
    c: decimals.describe('Close: the last trade’s spot price after it'),
    vBase: decimals.describe('Volume in the token'),
    vQuote: decimals.describe('Volume in the quote token'),
    n: z.array(z.number().int()).describe('Trades in the bar (0 for a filled one)'),
    filled: z
      .array(z.boolean())
      .describe('true for a bucket without trades carried from the previous close (fill=previous)'),
    nextTime: z
      .number()
      .int()
      .nullable()
      .describe('With no_data: the start of the nearest older bar, null when there is none'),
    partialLast: z.boolean().describe('The last bar is still open at the indexed block’s time'),
    blockNumber: z
      .number()
      .int()
      .nullable()
      .describe('The last indexed block the bars reflect; null before the first indexed range'),
  })
  .meta({
    id: 'Candles',
    description: 'OHLCV bars, columnar (every array as long as t)',
    example: {
      s: 'ok',
      resolution: '1h',
      quoteSymbol: 'VIRTUAL',
      t: [1767222000, 1767225600],
      o: ['0.000001', '0.0000011'],
      h: ['0.0000011', '0.0000012'],
      l: ['0.000001', '0.00000105'],
      c: ['0.0000011', '0.0000012'],
      vBase: ['9990009.990009990009990009', '4504504.5'],
      vQuote: ['10', '5'],
      n: [3, 1],
      filled: [false, false],
      nextTime: null,
      partialLast: true,
      blockNumber: 1284,
    },
  });

export const QUOTE_SYMBOLS = { virtuals: 'VIRTUAL', dpnm: 'USDT' } as const;

/** A token's board figures (`market` on `GET /tokens` items). */
export const marketSchema = z
  .object({
    quoteSymbol: z.enum(['VIRTUAL', 'USDT']).describe('The unit of price, marketCap and volume24h'),
    price: z.string().describe('Spot price per whole token, decimal string in whole units'),
    marketCap: z
      .string()
      .describe('price × circulating supply (the supply outside the curve and pool)'),
    volume24h: z
      .string()
      .describe('Quote volume of the last 24 hours of chain time, to the minute'),
    priceChange24h: z
      .number()
      .describe('(price − the price 24 hours before) / the price 24 hours before: 0.25 is +25 %'),
    trades24h: z.number().int(),
    holdersCount: z.number().int(),
    progressToGraduation: z
      .number()
      .nullable()
      .describe('virtuals: locked payment over the graduation threshold, 0 to 1; null for dpnm'),
    lastTradeAt: z.string().nullable().describe('ISO 8601; null before the first trade'),
  })
  .meta({ id: 'TokenMarket' });
