import { z } from 'zod';
import { isoTime, type slugParams } from '../../wire';
import { pageOf, pageQuery } from '../../paging/page';

/** Wire shapes of the chain reads (docs/chain.md "Reads"). */

const amount = z
  .string()
  .describe('Decimal string in whole units, all 18 decimals kept (e.g. "1250.5")');
const blockNumber = z
  .number()
  .int()
  .nullable()
  .describe('The last indexed block these figures reflect; null before the first indexed range');
const addressOrNull = z.string().nullable().describe('Checksummed address; null before the launch');

export const tokenPageQuery = z.object(pageQuery);

export const holderSchema = z
  .object({
    address: z.string().describe('Checksummed holder address'),
    balance: amount,
    share: z
      .number()
      .min(0)
      .max(1)
      .describe('balance / the supply held outside the curve and pool (0..1)'),
  })
  .meta({ id: 'Holder' });

export const holderPageSchema = pageOf(holderSchema)
  .extend({ blockNumber })
  .meta({
    id: 'HolderPage',
    description: 'Balance descending, ties by address descending',
    example: {
      items: [
        {
          address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
          balance: '12500000.25',
          share: 0.625,
        },
      ],
      nextCursor: null,
      blockNumber: 1284,
    },
  });

export const tradeSchema = z
  .object({
    id: z.string().describe('<blockNumber>-<logIndex>: unique per chain'),
    kind: z.enum(['buy', 'sell', 'graduation']),
    trader: z
      .string()
      .nullable()
      .describe('Checksummed; a graduation names the trader whose buy graduated the curve'),
    amountToken: amount.describe(
      'Tokens bought or sold; a graduation: the tokens left on the curve',
    ),
    amountPayment: amount.describe(
      'Payment token (virtuals) or USDT (dpnm), whole units; a graduation: the locked payment',
    ),
    price: amount.describe('Payment per whole token'),
    txHash: z.string(),
    blockNumber: z.number().int(),
    logIndex: z.number().int(),
    timestamp: isoTime.describe('The block’s time'),
  })
  .meta({ id: 'Trade' });

export const tradePageSchema = pageOf(tradeSchema)
  .extend({ blockNumber })
  .meta({
    id: 'TradePage',
    description: 'Newest first',
    example: {
      items: [
        {
          id: '1283-2',
          kind: 'buy',
          trader: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
          amountToken: '9990009.990009990009990009',
          amountPayment: '10',
          price: '0.000001001',
          txHash: '0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060',
          blockNumber: 1283,
          logIndex: 2,
          timestamp: '2026-11-24T10:15:00.000Z',
        },
      ],
      nextCursor: null,
      blockNumber: 1284,
    },
  });

const nullableAmount = amount.nullable();

export const curveOnchainSchema = z
  .object({
    template: z.literal('virtuals'),
    instance: addressOrNull,
    pair: addressOrNull.describe('The contract holding the curve (the virtuals factory)'),
    reserveToken: nullableAmount.describe('Tokens left on the curve'),
    reservePayment: nullableAmount.describe('Locked payment plus the virtual reserve'),
    lockedPaymentToken: nullableAmount,
    graduationThreshold: nullableAmount,
    progressToGraduation: z.number().min(0).max(1).nullable(),
    graduated: z.boolean().nullable(),
    lastTradePrice: nullableAmount,
    totalSupply: nullableAmount,
    blockNumber,
  })
  .meta({
    id: 'CurveOnchain',
    example: {
      template: 'virtuals',
      instance: '0x2E9D2A8d4C6b1e2F6f2D1f5CF6A3b9c0e4d7A1B2',
      pair: '0x7f25f5639eE79FF51af75ba67b89Eba04b363E62',
      reserveToken: '850961538.461538461538461539',
      reservePayment: '1175',
      lockedPaymentToken: '175',
      graduationThreshold: '1000',
      progressToGraduation: 0.175,
      graduated: false,
      lastTradePrice: '0.000001369',
      totalSupply: '1000000000',
      blockNumber: 1284,
    },
  });

export const poolOnchainSchema = z
  .object({
    template: z.literal('dpnm'),
    instance: addressOrNull,
    flowProtocol: addressOrNull,
    phenomenalTree: addressOrNull,
    gwt: addressOrNull,
    currentPrice: nullableAmount.describe('USDT per whole token'),
    poolUsdt: nullableAmount,
    totalSupply: nullableAmount,
    totalActivePositions: z.number().int().nullable(),
    totalTreePositions: z.number().int().nullable(),
    lifetimeFeesUsdt: nullableAmount,
    lifetimeGwtMinted: nullableAmount,
    blockNumber,
  })
  .meta({
    id: 'PoolOnchain',
    example: {
      template: 'dpnm',
      instance: '0x9B237A41b0d563A502e86d0C69BAcBE5432C7509',
      flowProtocol: '0x1c9b5F0e3a5DD2b4E1A8F0f7F0E5c6D2a3B4c5D6',
      phenomenalTree: '0x4a2B3c4D5E6F708192A3b4C5D6E7F8091A2b3c4d',
      gwt: '0x5b3C4D5e6f708192a3B4C5D6E7F8091A2b3c4D5E',
      currentPrice: '1.0125',
      poolUsdt: '182.25',
      totalSupply: '180',
      totalActivePositions: 3,
      totalTreePositions: 4,
      lifetimeFeesUsdt: '20',
      lifetimeGwtMinted: '0.3',
      blockNumber: 1290,
    },
  });

export const onchainSchema = z
  .discriminatedUnion('template', [curveOnchainSchema, poolOnchainSchema])
  .meta({ id: 'TokenOnchain' });

/** What `GET /tokens/:slug` adds from the chain: the template's fields (null before launch). */
export const detailChainSchema = z.object({
  progressToGraduation: z.number().min(0).max(1).nullable().optional(),
  lockedPaymentToken: nullableAmount.optional(),
  graduationThreshold: nullableAmount.optional(),
  estimatedTimeToGraduation: z
    .string()
    .nullable()
    .optional()
    .describe('ISO 8601 duration at the last 24 h rate of locked payment; null without buying'),
  lastTradePrice: nullableAmount.optional(),
  flowProtocol: addressOrNull.optional(),
  phenomenalTree: addressOrNull.optional(),
  gwt: addressOrNull.optional(),
  currentPrice: nullableAmount.optional(),
  poolUsdt: nullableAmount.optional(),
  totalSupply: nullableAmount.optional(),
  treeActivePositions: z.number().int().nullable().optional(),
  holdersCount: z.number().int().nullable(),
  blockNumber,
});

export type TokenSlugInput = z.output<typeof slugParams>;
export type TokenPageInput = TokenSlugInput & z.output<typeof tokenPageQuery>;
