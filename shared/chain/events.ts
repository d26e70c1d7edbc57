import { parseAbi } from 'viem';

/**
 * The events the chain indexer reads (docs/chain.md), as the reference contracts declare
 * them; `test/contracts/*.test.ts` checks each against the committed ABIs in `contracts/abi`.
 */

/** Both factories: a launch, linked to its token by `ref` (the token id's 16 bytes). */
export const factoryEvents = parseAbi([
  'event Launched(bytes16 indexed ref, address indexed instance, address indexed creator)',
  'event DpnmLaunched(address indexed instance, address protocol, address tree, address gwt, uint256 initialPrice, uint256 dailyLimitFloor, uint32 incomeLimitMultiplierBps, uint256 treeActivationCost)',
]);

/** The virtuals factory trades every curve itself. */
export const curveEvents = parseAbi([
  'event Trade(address indexed token, address indexed trader, bool isBuy, uint256 amountPayment, uint256 amountToken, uint256 reserveToken, uint256 lockedPayment)',
  'event Graduated(address indexed token, uint256 lockedPayment, uint256 reserveToken)',
  'event CurveCreated(address indexed token, uint256 reserveToken, uint256 virtualPayment, uint256 graduationThreshold)',
]);

/** A dpnm launch's protocol contract. Each event carries the state after the change. */
export const protocolEvents = parseAbi([
  'event Bought(address indexed trader, uint256 usdtIn, uint256 tokensOut, uint256 feeUsdt, uint256 price, uint256 dailyWindowStart, uint256 dailyDeposited, uint256 incomeLimit)',
  'event Sold(address indexed trader, uint256 tokensIn, uint256 usdtOut, uint256 feeUsdt, uint256 price, uint256 incomeLimit, uint256 lifetimeIncome)',
  'event UplinePaid(address indexed upline, address indexed from, uint8 level, uint256 amountUsdt, uint256 lifetimeIncome)',
  'event GwtAccrued(address indexed upline, address indexed from, uint8 level, uint256 amount, uint256 claimable)',
  'event Activated(address indexed user, address indexed referrer, address indexed parent, uint8 slot, uint256 activeUntil)',
  'event TreeExtended(address indexed user, uint256 activeUntil)',
  'event GwtClaimed(address indexed user, uint256 amount)',
  'event IncomeLimitBought(address indexed user, uint256 gwtAmount, uint256 incomeLimit)',
  'event PoolUpdated(uint256 poolUsdt, uint256 totalSupply, uint256 price, uint256 lifetimeFeesUsdt)',
]);

/** Launched tokens and a dpnm launch's GWT. */
export const erc20Events = parseAbi([
  'event Transfer(address indexed from, address indexed to, uint256 value)',
]);

/** The argument that names the address a protocol event is about (`chain_events.subject`). */
export const EVENT_SUBJECTS: Record<string, string | undefined> = {
  Bought: 'trader',
  Sold: 'trader',
  UplinePaid: 'upline',
  GwtAccrued: 'upline',
  Activated: 'user',
  TreeExtended: 'user',
  GwtClaimed: 'user',
  IncomeLimitBought: 'user',
};
