import { getAddress } from 'viem';
import { chainName } from '../../../shared/chain/chains';
import { checksummed, units } from '../../wire';
import type { TreeRow, UserStateRow } from './queries';
import type { LiveUserViews } from './live';
import type { TreeMemberWire } from './schemas';

/**
 * Per-user chain rows on the wire (docs/chain.md "User state"): amounts as decimal strings in
 * whole units (18 decimals kept), addresses checksummed, times in Unix seconds. "Now" is the
 * reported block's time, so every figure describes that one block, as the contract would.
 */

/** The tree spans 10 levels below a member: fees reach that far (docs/chain.md "dpnm"). */
export const TREE_LEVELS = 10;
const DAY_SECONDS = 86_400n;

/** `[level, value]` pairs as a 10-entry array, `empty` where a level has no row. */
function byLevel<T>(pairs: [number, T][], empty: T): T[] {
  const levels = Array<T>(TREE_LEVELS).fill(empty);
  for (const [level, value] of pairs) levels[level - 1] = value;
  return levels;
}

/** Whole days of activity left at `now`, rounded up: 0 once lapsed (or never activated). */
export function activeDaysLeft(activeUntil: bigint, now: bigint): number {
  if (activeUntil <= now) return 0;
  return Number((activeUntil - now + DAY_SECONDS - 1n) / DAY_SECONDS);
}

/** What the daily window allows at most: 1 % of the pool, at least the launch's floor. */
function dailyLimit(poolUsdt: bigint, floor: bigint): bigint {
  const share = poolUsdt / 100n;
  return share > floor ? share : floor;
}

export function userStateView(row: UserStateRow, live: LiveUserViews) {
  const activeUntil = BigInt(row.activeUntil ?? '0');
  const now = BigInt(row.headTime ?? '0');
  const slots: (string | null)[] = [null, null, null];
  for (const [slot, address] of row.children) slots[slot] = getAddress(address);
  const levels = byLevel(row.levels, 0);
  return {
    chainId: row.chainId,
    chainName: chainName(row.chainId),
    tokenSlug: row.tokenSlug,
    instance: getAddress(row.instance),
    flowProtocol: getAddress(row.protocol),
    flowBalance: units(row.flowBalance),
    usdtBalance: units(live.usdtBalance.toString()),
    gwtBalance: units(row.gwtBalance),
    currentPrice: units(row.currentPrice),
    dailyLimitTotal: units(
      dailyLimit(BigInt(row.poolUsdt), BigInt(row.dailyLimitFloor)).toString(),
    ),
    dailyLimitRemaining: units(live.dailyLimitRemaining.toString()),
    incomeLimitRemaining: units(row.incomeLimit ?? '0'),
    lifetimeIncome: units(row.lifetimeIncome ?? '0'),
    treeActiveUntil: Number(activeUntil),
    treeActiveDaysLeft: activeDaysLeft(activeUntil, now),
    // A claim empties it: after a `GwtClaimed` the latest value is null, i.e. 0.
    claimableGWT: units(row.claimableGwt ?? '0'),
    tree: {
      upline: checksummed(row.parent),
      directSlots: slots,
      subtreeSize: row.subtreeSize ?? 0,
      subtreeByLevel: levels,
    },
    blockNumber: Number(row.blockNumber),
  };
}

/**
 * The caller's tree to `depth` levels: `members` (shallowest first) hung into their parents'
 * slots. A member at the last level has no `directs`.
 */
export function treeView(address: string, row: TreeRow, depth: number) {
  const now = BigInt(row.headTime ?? '0');
  const directs: (TreeMemberWire | null)[] = [null, null, null];
  // The slots of every position placed so far, by address: the caller's first.
  const slotsOf = new Map<string, (TreeMemberWire | null)[]>([[address, directs]]);
  for (const [member, parent, slot, activeUntil, subtreeSize, level] of row.members) {
    const node: TreeMemberWire = {
      address: getAddress(member),
      active: BigInt(activeUntil) > now,
      subtreeSize,
    };
    // Shallowest first: a member's parent has its slots by the time the member comes.
    const slots = slotsOf.get(parent);
    if (!slots) continue;
    slots[slot] = node;
    if (level < depth) {
      node.directs = [null, null, null];
      slotsOf.set(member, node.directs);
    }
  }
  return {
    chainId: row.chainId,
    address: getAddress(address),
    upline: checksummed(row.parent),
    subtreeByLevel: byLevel(row.levels, 0),
    lifetimeEarnedByLevel: byLevel(
      row.earned.map(([level, amount]): [number, string] => [level, units(amount)]),
      '0',
    ),
    directs,
    blockNumber: Number(row.blockNumber),
  };
}
