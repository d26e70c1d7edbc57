import { z } from 'zod';

/**
 * The DEX Screener Adapter's shapes (its specification v1.1), for the launchpad's
 * bonding-curve pairs: a pair is a launched token (asset0) against its quote token (asset1).
 * Amounts and prices are decimal strings in whole units (the specification allows strings,
 * and these numbers do not fit a double).
 */

const chainId = z.coerce
  .number({ error: 'must be a positive integer' })
  .int({ error: 'must be a positive integer' })
  .positive({ error: 'must be a positive integer' })
  .optional()
  .describe('The chain (a configured one); the lowest configured chain id by default');

export const chainQuery = z.object({ chainId });

const address = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, { error: 'must be a 0x-prefixed 20-byte address' });

export const idQuery = z.object({ chainId, id: address.describe('The asset’s or pair’s address') });

const blockNumber = z.coerce
  .number({ error: 'must be a block number' })
  .int({ error: 'must be a block number' })
  .min(0, { error: 'must be a block number' });

/** At most this many blocks per `/events` request. */
export const MAX_EVENT_BLOCKS = 100_000;

export const eventsQuery = z
  .object({ chainId, fromBlock: blockNumber, toBlock: blockNumber })
  .superRefine((query, ctx) => {
    if (query.toBlock < query.fromBlock) {
      ctx.addIssue({ code: 'custom', path: ['toBlock'], message: 'must not be before fromBlock' });
    } else if (query.toBlock - query.fromBlock >= MAX_EVENT_BLOCKS) {
      ctx.addIssue({
        code: 'custom',
        path: ['toBlock'],
        message: `must be less than ${MAX_EVENT_BLOCKS} blocks after fromBlock`,
      });
    }
  });

const block = z.object({
  blockNumber: z.number().int(),
  blockTimestamp: z.number().int().describe('Unix seconds'),
});

export const latestBlockSchema = z.object({ block }).meta({
  id: 'DexScreenerLatestBlock',
  description: 'The newest final indexed block: /events holds every swap up to it',
  example: { block: { blockNumber: 1284, blockTimestamp: 1795989600 } },
});

export const assetSchema = z
  .object({
    asset: z.object({
      id: z.string(),
      name: z.string(),
      symbol: z.string(),
      totalSupply: z.string(),
      circulatingSupply: z.string().optional(),
    }),
  })
  .meta({
    id: 'DexScreenerAsset',
    example: {
      asset: {
        id: '0xc3b80ed1F7AeA7324D65b49F04CE304885874f31',
        name: 'Atlas',
        symbol: 'ATLAS',
        totalSupply: '1000000000',
        circulatingSupply: '9990009.990009990009990009',
      },
    },
  });

export const pairSchema = z
  .object({
    pair: z.object({
      id: z.string().describe('The launched token’s address: one curve (or pool) per token'),
      dexKey: z.string().describe('`virtuals` or `dpnm`: the launch template'),
      asset0Id: z.string().describe('The token'),
      asset1Id: z.string().describe('The quote token (the curve’s payment token, or USDT)'),
      createdAtBlockNumber: z.number().int(),
      createdAtBlockTimestamp: z.number().int(),
      createdAtTxnId: z.string(),
      creator: z.string(),
      feeBps: z.number().int().describe('0 for a virtuals curve; 1000 for dpnm (the tree fee)'),
    }),
  })
  .meta({
    id: 'DexScreenerPair',
    example: {
      pair: {
        id: '0xc3b80ed1F7AeA7324D65b49F04CE304885874f31',
        dexKey: 'virtuals',
        asset0Id: '0xc3b80ed1F7AeA7324D65b49F04CE304885874f31',
        asset1Id: '0x16E454B91a9A4DA4043Ecad326c31e1b8a378e24',
        createdAtBlockNumber: 1283,
        createdAtBlockTimestamp: 1795989590,
        createdAtTxnId: '0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060',
        creator: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
        feeBps: 0,
      },
    },
  });

const amount = z.string().optional();

export const eventsSchema = z
  .object({
    events: z.array(
      z.object({
        block,
        eventType: z.literal('swap'),
        txnId: z.string(),
        txnIndex: z
          .number()
          .int()
          .describe('The transaction’s rank among the block’s indexed transactions'),
        eventIndex: z.number().int().describe('The log index'),
        maker: z.string(),
        pairId: z.string(),
        asset0In: amount,
        asset1In: amount,
        asset0Out: amount,
        asset1Out: amount,
        priceNative: z.string().describe('asset1 per asset0 after the swap (the spot price)'),
        reserves: z
          .object({ asset0: z.string(), asset1: z.string() })
          .optional()
          .describe('virtuals: the curve’s tokens and locked payment after the swap'),
      }),
    ),
  })
  .meta({
    id: 'DexScreenerEvents',
    description: 'Swaps up to the newest final block, in chain order',
  });
