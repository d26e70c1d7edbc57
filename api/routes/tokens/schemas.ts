import { imageMediaIdField } from '../media/image-field';
import { formatUnits, parseUnits } from 'viem';
import { z } from 'zod';
import { marketSchema } from './market-schemas';
import {
  TOKEN_STATES,
  TOKEN_TEMPLATES,
  type Token,
  type TokenTemplate,
} from '../../../shared/db/entities/token';
import {
  AMOUNT_DECIMALS,
  MULTIPLIER_DECIMALS,
  type LaunchParams,
} from '../../../shared/chain/launchpad';
import { PAYMENT_TOKEN_ROLES } from '../../../shared/config';
import { LOCAL_CHAIN_EXAMPLE } from './chains';
import { isoTime, type slugParams } from '../../wire';
import { pageOf, pageQuery } from '../../paging/page';

/**
 * Wire shapes of the token and chain endpoints (spec "Token", docs/spec/contract.md §7;
 * docs/chain.md "Reads"): camelCase. Beside them, the functions that write their forms from
 * rows: `publicToken`, and for figures of the chain index `units` (amounts), `checksummed`
 * (addresses) and `blockOf` (the indexed block).
 */

export const TOKEN_SORTS = [
  'new',
  'old',
  'name',
  'market_cap',
  'volume_24h',
  'price_change_24h',
  'last_trade',
  'graduating',
  'trending',
] as const;
export type TokenSort = (typeof TOKEN_SORTS)[number];

/** Largest amount a launch parameter accepts, in whole units: far beyond any real price. */
export const MAX_LAUNCH_AMOUNT = 10n ** 15n;
export const MAX_INCOME_LIMIT_MULTIPLIER = 100;
export const BRIEF_MAX_LENGTH = 2000;

const required = (otherwise: string) => (issue: { input: unknown }) =>
  issue.input === undefined ? 'is required' : otherwise;

const DECIMAL = /^\d+(?:\.\d+)?$/;
const DECIMAL_ERROR = `must be a decimal string with at most ${AMOUNT_DECIMALS} decimals`;

/**
 * A token amount as a decimal string (`"12.5"`): at most 18 decimals, no sign or exponent,
 * up to MAX_LAUNCH_AMOUNT. Normalised to its shortest form (`"012.50"` → `"12.5"`).
 */
function amount(minimum: 'positive' | 'nonnegative') {
  return z
    .string({ error: required(DECIMAL_ERROR) })
    .max(64, { error: DECIMAL_ERROR })
    .regex(DECIMAL, { error: DECIMAL_ERROR })
    .refine((value) => (value.split('.')[1]?.length ?? 0) <= AMOUNT_DECIMALS, {
      error: DECIMAL_ERROR,
    })
    .transform((value, ctx) => {
      const units = parseUnits(value, AMOUNT_DECIMALS);
      if (minimum === 'positive' && units === 0n) {
        ctx.addIssue({ code: 'custom', message: 'must be greater than 0' });
        return z.NEVER;
      }
      if (units > MAX_LAUNCH_AMOUNT * 10n ** BigInt(AMOUNT_DECIMALS)) {
        ctx.addIssue({ code: 'custom', message: `must be at most ${MAX_LAUNCH_AMOUNT}` });
        return z.NEVER;
      }
      return formatUnits(units, AMOUNT_DECIMALS);
    })
    .describe(
      `Decimal string, at most ${AMOUNT_DECIMALS} decimals, ${minimum === 'positive' ? '> 0' : '≥ 0'}`,
    );
}

const multiplier = z
  .number({ error: required('must be a number') })
  .gt(0, { error: 'must be greater than 0' })
  .max(MAX_INCOME_LIMIT_MULTIPLIER, { error: `must be at most ${MAX_INCOME_LIMIT_MULTIPLIER}` })
  // String(n) is the shortest exact form; below 100 it never uses an exponent once > 1e-7.
  .refine((value) => new RegExp(`^\\d+(\\.\\d{1,${MULTIPLIER_DECIMALS}})?$`).test(String(value)), {
    error: `must have at most ${MULTIPLIER_DECIMALS} decimals`,
  });

/** Template-specific launch parameters; unknown fields are refused (`params_invalid`). */
export const launchParamsSchemas: { [T in TokenTemplate]: z.ZodType<LaunchParams[T]> } = {
  virtuals: z.strictObject({
    graduationThreshold: amount('positive').describe(
      'Payment tokens locked in the bonding curve at which the token graduates',
    ),
    initialBuy: amount('nonnegative')
      .default('0')
      .describe('Payment tokens the creator buys in the launch transaction; "0" by default'),
  }),
  dpnm: z.strictObject({
    initialPrice: amount('positive').describe('Starting price in USDT'),
    // Both > 0: a zero floor leaves nobody able to buy into an empty pool, and the reference
    // contract refuses a free activation (docs/chain.md "dpnm"), so the launch would revert.
    dailyLimitFloor: amount('positive').describe('Minimum daily deposit limit in USDT'),
    incomeLimitMultiplier: multiplier.describe('Income limit as a multiple of the deposit'),
    treeActivationCost: amount('positive').describe('USDT cost to activate a tree position'),
  }),
};

export const createTokenBody = z
  .strictObject({
    template: z
      .string()
      .describe(`One of ${TOKEN_TEMPLATES.join(', ')}; the chain must have its factory`),
    name: z
      .string()
      .trim()
      .min(1, { error: 'must be 1 to 64 characters' })
      .max(64, { error: 'must be 1 to 64 characters' }),
    ticker: z
      .string()
      .describe('3 to 6 characters A-Z, 0-9; normalised to upper case; unique per chain'),
    brief: z
      .string()
      .max(BRIEF_MAX_LENGTH, { error: `must be at most ${BRIEF_MAX_LENGTH} characters` })
      .nullish(),
    params: z
      .record(z.string(), z.unknown(), { error: required('must be an object') })
      .describe(
        'virtuals: {graduationThreshold, initialBuy?}; dpnm: {initialPrice, dailyLimitFloor, ' +
          'incomeLimitMultiplier, treeActivationCost}. Amounts are decimal strings.',
      ),
    instance: z
      .string({ error: 'must be a 0x address' })
      .max(64, { error: 'must be a 0x address' })
      .nullish()
      .describe('An instance already launched: metadata only, no pendingLaunchTx'),
    chainId: z
      .number({ error: required('must be an integer') })
      .int({ error: 'must be an integer' })
      .describe('A configured chain (GET /chains)'),
    imageUrl: z
      .url({ protocol: /^https$/, error: 'must be an https URL' })
      .max(2048, { error: 'must be at most 2048 characters' })
      .nullish(),
    imageMediaId: imageMediaIdField.nullish(),
  })
  .meta({
    examples: [
      {
        template: 'virtuals',
        name: 'Atlas',
        ticker: 'ATLAS',
        brief: 'Atlas funds community research; holders share 5 % of its agents’ earnings.',
        params: { graduationThreshold: '42000', initialBuy: '100' },
        chainId: 31337,
        imageUrl: 'https://cdn.example.com/images/atlas.png',
      },
      {
        template: 'dpnm',
        name: 'Flow Protocol',
        ticker: 'FLOW',
        params: {
          initialPrice: '1',
          dailyLimitFloor: '100',
          incomeLimitMultiplier: 3,
          treeActivationCost: '10',
        },
        chainId: 31337,
      },
    ],
  });

export type CreateTokenInput = z.output<typeof createTokenBody>;

export const DESCRIPTION_MAX_LENGTH = 2000;

/** Where each link may point: the site anywhere on https, the socials only on their own hosts. */
export const LINK_HOSTS = {
  website: null,
  twitter: ['x.com', 'www.x.com', 'twitter.com', 'www.twitter.com'],
  telegram: ['t.me', 'telegram.me'],
} as const satisfies Record<string, readonly string[] | null>;
export type LinkName = keyof typeof LINK_HOSTS;

function link(name: LinkName) {
  const hosts: readonly string[] | null = LINK_HOSTS[name];
  const rule = hosts ? `must be an https URL on ${hosts.join(', ')}` : 'must be an https URL';
  return z
    .url({ protocol: /^https$/, error: rule })
    .max(2048, { error: 'must be at most 2048 characters' })
    .refine((value) => !hosts || hosts.includes(new URL(value).hostname), { error: rule })
    .nullable()
    .optional()
    .describe(`An https URL${hosts ? ` on ${hosts.join(', ')}` : ''}; null removes it`);
}

/** `PATCH /tokens/:slug` (docs/spec/contract.md §14): only the fields sent change. */
export const updateTokenBody = z
  .strictObject({
    name: createTokenBody.shape.name
      .optional()
      .describe('Only while the token is pending: rebuilds pendingLaunchTx'),
    ticker: z
      .string()
      .optional()
      .describe('Only while pending: 3 to 6 characters A-Z, 0-9; unique per chain'),
    imageUrl: createTokenBody.shape.imageUrl.describe('Only while pending; null removes it'),
    imageMediaId: imageMediaIdField.nullish().describe('Only while pending, instead of imageUrl'),
    description: z
      .string()
      .trim()
      .min(1, { error: `must be 1 to ${DESCRIPTION_MAX_LENGTH} characters` })
      .max(DESCRIPTION_MAX_LENGTH, { error: `must be 1 to ${DESCRIPTION_MAX_LENGTH} characters` })
      .nullable()
      .optional()
      .describe('At any time; null removes it'),
    links: z
      .strictObject({
        website: link('website'),
        twitter: link('twitter'),
        telegram: link('telegram'),
      })
      .optional()
      .describe('At any time; only the links sent change'),
  })
  .meta({
    examples: [
      {
        description: 'Atlas funds community research; holders share 5 % of its agents’ earnings.',
        links: { website: 'https://atlas.example.com', twitter: 'https://x.com/atlas' },
      },
      {
        name: 'Atlas Research',
        ticker: 'ATLR',
        imageMediaId: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
      },
    ],
  });

export type UpdateTokenInput = z.output<typeof updateTokenBody>;

// ---------------------------------------------------------------------------------------
// Figures of the chain index (docs/chain.md "Reads"). Declared before the token schemas: the
// OpenAPI document lists its components in the order they are declared.

const wholeUnits = z
  .string()
  .describe('Decimal string in whole units, all 18 decimals kept (e.g. "1250.5")');
const blockNumber = z
  .number()
  .int()
  .nullable()
  .describe('The last indexed block these figures reflect; null before the first indexed range');
const addressOrNull = z.string().nullable().describe('Checksummed address; null before the launch');

export const holderSchema = z
  .object({
    address: z.string().describe('Checksummed holder address'),
    balance: wholeUnits,
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
    amountToken: wholeUnits.describe(
      'Tokens bought or sold; a graduation: the tokens left on the curve',
    ),
    amountPayment: wholeUnits.describe(
      'Payment token (virtuals) or USDT (dpnm), whole units; a graduation: the locked payment',
    ),
    price: wholeUnits.describe('Payment per whole token'),
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

const nullableAmount = wholeUnits.nullable();

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

export const tokenSchema = z
  .object({
    id: z.uuid(),
    slug: z.string(),
    name: z.string(),
    ticker: z.string(),
    template: z.enum(TOKEN_TEMPLATES),
    instance: z.string().nullable().describe('Checksummed instance address once launched'),
    chainId: z.number().int(),
    imageUrl: z.string().nullable(),
    brief: z.string().nullable(),
    params: z.record(z.string(), z.unknown()).describe('Launch parameters, normalised'),
    state: z
      .enum(TOKEN_STATES)
      .describe('`pending` until the launch is seen on chain; then live, graduating, ...'),
    createdAt: isoTime,
    pendingLaunchTx: z
      .string()
      .optional()
      .describe(
        'Hex calldata of the factory’s launch function (GET /chains has the factory); ' +
          'present only while the token has no instance',
      ),
  })
  .meta({ id: 'Token' });

export const createdTokenSchema = tokenSchema
  .extend({
    launchFactory: z
      .string()
      .nullable()
      .describe('Where the wallet sends pendingLaunchTx; null when created with an instance'),
  })
  .meta({
    id: 'CreatedToken',
    examples: [
      {
        id: 'b1e4c7d2-5a8f-4b3e-8c6d-9f2a1e7b4c58',
        slug: 'atlas',
        name: 'Atlas',
        ticker: 'ATLAS',
        template: 'virtuals',
        instance: null,
        chainId: 31337,
        imageUrl: 'https://cdn.example.com/images/atlas.png',
        brief: 'Atlas funds community research; holders share 5 % of its agents’ earnings.',
        params: { graduationThreshold: '42000', initialBuy: '100' },
        state: 'pending',
        createdAt: '2026-11-24T10:00:00.000Z',
        pendingLaunchTx:
          '0x4f1ef286b1e4c7d25a8f4b3e8c6d9f2a1e7b4c5800000000000000000000000000000000' +
          '00000000000000000000000000000000000000000000000000000000000000c0',
        launchFactory: '0x7f25f5639eE79FF51af75ba67b89Eba04b363E62',
      },
    ],
  });

export const tokenLinksSchema = z
  .object({
    website: z.string().nullable(),
    twitter: z.string().nullable(),
    telegram: z.string().nullable(),
  })
  .meta({ id: 'TokenLinks' });

export const tokenDetailSchema = tokenSchema
  .extend({
    description: z.string().nullable().describe('Set by the creator (PATCH /tokens/:slug)'),
    links: tokenLinksSchema,
    holderRewardPoolFlow: z
      .number()
      .describe(
        'FLOW accrued for the token’s holders (5 % of linked agents’ earnings), not yet distributed',
      ),
    lastHolderRewardDistribution: z
      .object({
        id: z.uuid(),
        period: z.string().describe('The UTC day (YYYY-MM-DD): at most one distribution per day'),
        blockNumber: z.number().int().describe('Shares follow the indexed balances at this block'),
        distributedFlow: z
          .number()
          .describe('FLOW shared among the platform users holding the token'),
        recipients: z.number().int(),
        createdAt: isoTime,
        completedAt: isoTime.nullable().describe('Null while payouts are being credited'),
      })
      .nullable()
      .describe('The latest distribution of the pool; null before the first'),
    launchFactory: z
      .string()
      .nullable()
      .describe('Where pendingLaunchTx goes; null once the token has an instance'),
    ...detailChainSchema.shape,
  })
  .meta({ id: 'TokenDetail' });

/** `GET /tokens`. */
export const listTokensQuery = z.object({
  ...pageQuery,
  template: z.enum(TOKEN_TEMPLATES).optional(),
  state: z.enum(TOKEN_STATES).optional(),
  // Chain ids are positive: this also refuses `?chainId=`, which coercion reads as 0.
  chainId: z.coerce
    .number({ error: 'must be a positive integer' })
    .int({ error: 'must be a positive integer' })
    .positive({ error: 'must be a positive integer' })
    .optional(),
  sort: z
    .enum(TOKEN_SORTS)
    .default('new')
    .describe(
      'new: newest first (default); old: oldest first; name: by name A-Z. The board ' +
        '(launched tokens only, highest first): market_cap, volume_24h, price_change_24h, ' +
        'last_trade (the last trade, or the launch before any), graduating (virtuals `live` ' +
        'tokens by progress to graduation), trending (trades in the last hour × (1 + the ' +
        'hour’s share of the day’s volume)); docs/chain.md "Market data"',
    ),
});

/** `GET /tokens/:slug/holders` and `/trades`. */
export const tokenPageQuery = z.object(pageQuery);

export const tokenListItemSchema = tokenSchema
  .extend({
    market: marketSchema
      .nullable()
      .describe('The board’s figures from the chain index; null before the launch is indexed'),
  })
  .meta({ id: 'TokenListItem' });

export const tokenPageSchema = pageOf(tokenListItemSchema).meta({ id: 'TokenPage' });

const address = z.string().nullable();

const paymentTokenSchema = z.object({
  role: z
    .enum(PAYMENT_TOKEN_ROLES)
    .describe(
      'virtualsPayment: what virtuals bonding curves trade against; usdt: what dpnm prices, ' +
        'deposits and tree activations are in',
    ),
  template: z.enum(TOKEN_TEMPLATES).describe('The launch template that pays in it'),
  address: z.string().describe('Checksummed ERC-20 address'),
  symbol: z.string(),
  decimals: z
    .number()
    .int()
    .describe(
      `Always ${AMOUNT_DECIMALS}: the service encodes launch amounts with ${AMOUNT_DECIMALS} decimals`,
    ),
});

const faucetSchema = z.object({
  kind: z.enum(['mint']).describe('mint: the payment tokens are test tokens anyone may mint'),
  how: z.string().describe('The steps in one sentence'),
  mintFunction: z
    .string()
    .describe('Human-readable ABI of the payment tokens’ public mint (viem parseAbi, ethers)'),
  setBalanceRpcMethod: z
    .string()
    .describe('JSON-RPC method that sets an address’s ETH balance: params [address, hex wei]'),
});

export const chainsSchema = z
  .object({
    items: z.array(
      z.object({
        chainId: z.number().int(),
        name: z.string(),
        factories: z.object({ virtuals: address, dpnm: address }),
        paymentTokens: z
          .array(paymentTokenSchema)
          .describe(
            'The ERC-20s launches on this chain pay in (CHAIN_PAYMENT_TOKENS); may be empty',
          ),
        faucet: faucetSchema
          .nullable()
          .describe('How to get test tokens: on the local chain 31337 only, null elsewhere'),
      }),
    ),
  })
  .meta({ id: 'ChainList', examples: [{ items: [LOCAL_CHAIN_EXAMPLE] }] });

export type ListTokensInput = z.output<typeof listTokensQuery>;
export type TokenSlugInput = z.output<typeof slugParams>;
export type TokenPageInput = TokenSlugInput & z.output<typeof tokenPageQuery>;

// ---------------------------------------------------------------------------------------
// Writing the wire forms

type TokenFields = Pick<
  Token,
  | 'id'
  | 'slug'
  | 'name'
  | 'ticker'
  | 'template'
  | 'instance'
  | 'chainId'
  | 'imageUrl'
  | 'brief'
  | 'params'
  | 'state'
  | 'pendingLaunchTx'
>;

/** A token's fields with the creation time already in its wire form. */
export type TokenWireFields = TokenFields & { createdAt: string };

/** A token as every token response shows it. */
export function publicToken(token: TokenWireFields): z.infer<typeof tokenSchema> {
  return {
    id: token.id,
    slug: token.slug,
    name: token.name,
    ticker: token.ticker,
    template: token.template,
    instance: token.instance ?? null,
    chainId: token.chainId,
    imageUrl: token.imageUrl ?? null,
    brief: token.brief ?? null,
    params: token.params,
    state: token.state,
    createdAt: token.createdAt,
    // The calldata only matters until the launch is linked to an instance.
    ...(token.instance == null && token.pendingLaunchTx
      ? { pendingLaunchTx: token.pendingLaunchTx }
      : {}),
  };
}

/** `chain_cursors.next_block - 1`: null before the chain's first indexed range. */
export function blockOf(value: string | null): number | null {
  return value === null || Number(value) < 0 ? null : Number(value);
}
