import { z } from 'zod';
import { TREE_LEVELS } from './views';

/** Wire shapes of the per-user chain reads (docs/chain.md "User state"). */

const amount = z
  .string()
  .describe('Decimal string in whole units, all 18 decimals kept (e.g. "1250.5")');
const address = z.string().describe('Checksummed address');
const blockNumber = z.number().int().describe('The indexed block every figure here reflects');
const levels = z.array(z.number().int().min(0)).length(TREE_LEVELS);

const EXAMPLE_ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const EXAMPLE_UPLINE = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';

export const userStateSchema = z
  .object({
    chainId: z.number().int(),
    chainName: z.string(),
    tokenSlug: z
      .string()
      .nullable()
      .describe(
        'The FLOW token of this chain; null when CHAIN_FLOW_TOKENS names a launch of ours not linked to a token',
      ),
    instance: address.describe('The FLOW token (the dpnm instance)'),
    flowProtocol: address.describe('Its DpnmProtocol: buy, sell, activate, extendTree, claimGWT'),
    flowBalance: amount.describe('FLOW held (indexed)'),
    usdtBalance: amount.describe('USDT held (the USDT contract’s balanceOf at blockNumber)'),
    gwtBalance: amount.describe('GWT held (indexed)'),
    currentPrice: amount.describe(
      'USDT per FLOW (indexed); flowBalance × currentPrice estimates the holding in USD',
    ),
    dailyLimitTotal: amount.describe(
      'USDT one address may buy for per 24-hour window: 1 % of the pool, at least the floor',
    ),
    dailyLimitRemaining: amount.describe(
      'USDT still allowed in the current window (the protocol’s dailyLimitRemaining at blockNumber)',
    ),
    incomeLimitRemaining: amount.describe(
      'USDT that sells may still pay out: falls with sells, rises with buys and GWT redemption',
    ),
    lifetimeIncome: amount.describe('USDT received from sells and upline fees'),
    treeActiveUntil: z
      .number()
      .int()
      .describe('Unix seconds when the tree activity ends; 0 = never activated'),
    treeActiveDaysLeft: z
      .number()
      .int()
      .min(0)
      .describe('Whole days left at blockNumber’s time, rounded up; 0 once lapsed'),
    claimableGWT: amount.describe(
      'GWT accrued from descendants’ fees while lapsed, minted by the wallet’s claimGWT',
    ),
    tree: z.object({
      upline: address.nullable().describe('The parent position; null for the root (the creator)'),
      directSlots: z
        .array(address.nullable())
        .length(3)
        .describe('The three direct slots in order, null where free'),
      subtreeSize: z.number().int().min(0).describe('Members up to 10 levels below'),
      subtreeByLevel: levels.describe('Members 1..10 levels below'),
    }),
    blockNumber,
  })
  .meta({ id: 'OnchainUserState' });

export const flowOnchainSchema = z
  .object({
    address: address
      .nullable()
      .describe('The signed-in wallet; null for an account without one (then `chains` is empty)'),
    chains: z
      .array(userStateSchema)
      .describe('One entry per configured chain where the address has any FLOW activity'),
  })
  .meta({
    id: 'FlowOnchain',
    example: {
      address: EXAMPLE_ADDRESS,
      chains: [
        {
          chainId: 31337,
          chainName: 'Local development chain',
          tokenSlug: 'flow',
          instance: '0x8464135c8F25Da09e49BC8782676a84730C318bC',
          flowProtocol: '0x71C95911E9a5D330f4D621842EC243EE1343292e',
          flowBalance: '85.5',
          usdtBalance: '9890',
          gwtBalance: '0',
          currentPrice: '1.02',
          dailyLimitTotal: '1000',
          dailyLimitRemaining: '900',
          incomeLimitRemaining: '200',
          lifetimeIncome: '1.2',
          treeActiveUntil: 1_797_379_200,
          treeActiveDaysLeft: 30,
          claimableGWT: '0',
          tree: {
            upline: EXAMPLE_UPLINE,
            directSlots: ['0x90F79bf6EB2c4f870365E785982E1f101E93b906', null, null],
            subtreeSize: 1,
            subtreeByLevel: [1, 0, 0, 0, 0, 0, 0, 0, 0, 0],
          },
          blockNumber: 1284,
        },
      ],
    },
  });

export const treeQuery = z.object({
  depth: z.coerce
    .number()
    .int()
    .min(1)
    .max(TREE_LEVELS)
    .default(3)
    .describe('Levels of `directs` to nest, 1..10'),
  chainId: z.coerce
    .number()
    .int()
    .positive()
    .optional()
    .describe('Default: the first configured chain (lowest id) with a FLOW token'),
});

export interface TreeMemberWire {
  address: string;
  active: boolean;
  subtreeSize: number;
  directs?: (TreeMemberWire | null)[];
}

export const treeMemberSchema: z.ZodType<TreeMemberWire> = z
  .object({
    address,
    active: z.boolean().describe('Tree activity lasts past blockNumber’s time'),
    subtreeSize: z.number().int().min(0).describe('Members up to 10 levels below'),
    get directs() {
      return z
        .array(treeMemberSchema.nullable())
        .length(3)
        .optional()
        .describe('Its three slots, while depth remains; absent at the last level');
    },
  })
  .meta({ id: 'TreeMember' });

export const treeSchema = z
  .object({
    chainId: z.number().int(),
    address,
    upline: address.nullable().describe('The parent position; null for the root (the creator)'),
    subtreeByLevel: levels.describe('Members 1..10 levels below'),
    lifetimeEarnedByLevel: z
      .array(amount)
      .length(TREE_LEVELS)
      .describe('USDT paid from the fees of members 1..10 levels below, since activation'),
    directs: z
      .array(treeMemberSchema.nullable())
      .length(3)
      .describe('The three direct slots, nested to `depth` levels'),
    blockNumber,
  })
  .meta({
    id: 'Tree',
    example: {
      chainId: 31337,
      address: EXAMPLE_ADDRESS,
      upline: EXAMPLE_UPLINE,
      subtreeByLevel: [1, 1, 0, 0, 0, 0, 0, 0, 0, 0],
      lifetimeEarnedByLevel: ['1', '0.5', '0', '0', '0', '0', '0', '0', '0', '0'],
      directs: [
        {
          address: '0x90F79bf6EB2c4f870365E785982E1f101E93b906',
          active: true,
          subtreeSize: 1,
          directs: [
            {
              address: '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65',
              active: false,
              subtreeSize: 0,
            },
            null,
            null,
          ],
        },
        null,
        null,
      ],
      blockNumber: 1284,
    },
  });
