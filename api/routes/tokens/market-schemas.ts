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

/** The resolutions a stream may ask bars of (stored ones; 15 s bars are REST only). */
export const STREAM_RESOLUTIONS = ['1m', '5m', '15m', '1h', '4h', '1d', '1w'] as const;
export type StreamResolution = (typeof STREAM_RESOLUTIONS)[number];

export const tokenStreamQuery = z.object({
  resolutions: z
    .string()
    .max(64)
    .default('1m')
    .transform((value, ctx) => {
      const names = [...new Set(value.split(',').map((name) => name.trim()))];
      const unknown = names.filter(
        (name) => !(STREAM_RESOLUTIONS as readonly string[]).includes(name),
      );
      if (unknown.length > 0 || names.length === 0) {
        ctx.addIssue({
          code: 'custom',
          message: `must be a comma-separated list of ${STREAM_RESOLUTIONS.join(', ')}`,
        });
        return z.NEVER;
      }
      return names as StreamResolution[];
    })
    .describe('Bars to send after each trade, comma-separated (1m by default)'),
  lastEventId: z
    .string()
    .max(32)
    .optional()
    .describe('Same as the Last-Event-ID header, for clients that cannot set headers'),
});

export const firehoseQuery = z.object({
  lastEventId: z
    .string()
    .max(32)
    .optional()
    .describe('Same as the Last-Event-ID header, for clients that cannot set headers'),
});

export const streamHeaders = z.looseObject({
  'last-event-id': z
    .string()
    .max(32)
    .optional()
    .describe('The last event id the client has; only newer events are sent'),
});

const TOKEN_STREAM_EXAMPLE = [
  'retry: 3000',
  '',
  'id: 41',
  'event: snapshot',
  'data: {"lastTick":null,"bars":{},"state":"live","blockNumber":1283}',
  '',
  'event: tick',
  'data: {"blockNumber":1284,"txHash":"0x5c50…","logIndex":2,"time":"2026-11-29T10:00:00.000Z","side":"buy","trader":"0x7099…79C8","baseAmount":"9990009.990009990009990009","quoteAmount":"10","priceBefore":"0.000001","price":"0.00000102","marketCap":"10.18","progressToGraduation":0.01}',
  '',
  'id: 42',
  'event: bar',
  'data: {"resolution":"1m","t":1795989600,"o":"0.000001","h":"0.00000102","l":"0.000001","c":"0.00000102","vBase":"9990009.990009990009990009","vQuote":"10","n":1}',
  '',
].join('\n');

export const TOKEN_STREAM_DESCRIPTION =
  'Server-Sent Events of one token (docs/chain.md "Market data"). Without `Last-Event-ID`: ' +
  'first a `snapshot` {lastTick, bars (the latest bar of each asked resolution), state, ' +
  'blockNumber}. Then, for each indexed range with trades of the token, a `tick` per trade ' +
  '{blockNumber, txHash, logIndex, time, side, trader, baseAmount, quoteAmount, priceBefore, ' +
  'price, marketCap, progressToGraduation} and a `bar` per asked resolution with the whole ' +
  'current bar; `revert` {fromBlock, fromTime, removed [{txHash, logIndex}], bars} when a ' +
  'reorg takes trades back (drop the bars from the bucket holding fromTime on, then apply ' +
  'these); `state` {state, blockNumber}. Ids come from one outbox sequence shared by all ' +
  'tokens (increasing, not contiguous); a group of events from one outbox row carries its ' +
  'id on its last event. `Last-Event-ID` replays exactly the newer events; an id older than ' +
  'what is kept (at least 24 hours) or unknown gets `reset` {reason: expired | unknown_id} ' +
  'and then a fresh `snapshot`: refetch over REST. `: keep-alive` every 15 s.';

export const FIREHOSE_DESCRIPTION =
  'Server-Sent Events of every token: `token` {slug, name, ticker, template, chainId, ' +
  'instance, reason: created | launched | updated}, `tick` {slug, side, price, quoteAmount, ' +
  'marketCap} for every indexed trade, and `state` {slug, state, blockNumber}; the same ids, ' +
  'replay and `reset` rules as a token’s stream (no snapshot: a fresh connection starts now).';

export const tokenStreamResponse = {
  description: 'The event stream',
  content: {
    'text/event-stream': {
      schema: z
        .string()
        .describe(TOKEN_STREAM_DESCRIPTION)
        .meta({ examples: [TOKEN_STREAM_EXAMPLE] }),
    },
  },
};

export const firehoseResponse = {
  description: 'The event stream',
  content: {
    'text/event-stream': {
      schema: z
        .string()
        .describe(FIREHOSE_DESCRIPTION)
        .meta({
          examples: [
            'retry: 3000\n\nid: 43\nevent: tick\ndata: {"slug":"atlas","side":"buy","price":"0.00000102","quoteAmount":"10","marketCap":"10.18"}\n\n',
          ],
        }),
    },
  },
};
