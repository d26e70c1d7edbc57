import { detailChainSchema } from './chain-schemas';
import { formatUnits, parseUnits } from 'viem';
import { z } from 'zod';
import {
  TOKEN_STATES,
  TOKEN_TEMPLATES,
  type TokenTemplate,
} from '../../../shared/db/entities/token';
import {
  AMOUNT_DECIMALS,
  MULTIPLIER_DECIMALS,
  type LaunchParams,
} from '../../../shared/chain/launchpad';
import { PAYMENT_TOKEN_ROLES } from '../../../shared/config';
import { LOCAL_CHAIN_EXAMPLE } from './chains';
import { isoTime } from '../../wire';
import { pageOf, pageQuery } from '../../paging/page';

/** Wire shapes of the token and chain endpoints (spec "Token", docs/spec/contract.md §7): camelCase. */

export const TOKEN_SORTS = ['new', 'old', 'name'] as const;
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

export const tokenDetailSchema = tokenSchema
  .extend({
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
    .describe('new: newest first (default); old: oldest first; name: by name A-Z'),
});

export const tokenPageSchema = pageOf(tokenSchema).meta({ id: 'TokenPage' });

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
