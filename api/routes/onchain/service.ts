import { getAddress } from 'viem';
import type { Sql } from '../../../shared/db/sql';
import { AppError } from '../../../shared/errors';
import type { Actor } from '../../access/actor';
import type { LiveUserReads } from './live';
import { treeOf, userStates } from './queries';
import { treeView, userStateView } from './views';

/** The caller's on-chain state and tree (docs/chain.md "User state"). */

export interface OnchainDeps {
  db: Sql;
  live: LiveUserReads;
  /** Configured chains, ascending. */
  chainIds: number[];
  /** `CHAIN_FLOW_TOKENS`: the named FLOW instance per chain. */
  flowTokens: Record<number, string>;
}

/** The statements' chain arguments: ids and their named instances ('' where none). */
function candidates(deps: OnchainDeps, chainIds: number[]): [number[], string[]] {
  return [chainIds, chainIds.map((id) => deps.flowTokens[id]?.toLowerCase() ?? '')];
}

/** `GET /me/flow-onchain`: an entry per chain where the caller's wallet has FLOW activity. */
export async function flowOnchain(deps: OnchainDeps, actor: Actor) {
  const address = actor.user.address;
  if (address === null) return { address: null, chains: [] };
  const rows = await deps.db.rows(userStates, [...candidates(deps, deps.chainIds), address]);
  const wallet = getAddress(address);
  const chains = await Promise.all(
    rows.map(async (row) => {
      const live = await deps.live.read(
        row.chainId,
        getAddress(row.protocol),
        wallet,
        BigInt(row.blockNumber ?? '0'),
      );
      return userStateView(row, live);
    }),
  );
  return { address: wallet, chains };
}

export interface TreeInput {
  depth: number;
  chainId?: number | undefined;
}

/** `GET /me/tree`: the caller's position on one chain, `depth` levels of it nested. */
export async function flowTree(deps: OnchainDeps, actor: Actor, input: TreeInput) {
  if (input.chainId !== undefined && !deps.chainIds.includes(input.chainId)) {
    throw new AppError(
      'chain_unsupported',
      `chainId: ${input.chainId} is not configured here (configured: ${deps.chainIds.join(', ') || 'none'})`,
    );
  }
  const address = actor.user.address;
  const chainIds = input.chainId === undefined ? deps.chainIds : [input.chainId];
  const row =
    address === null
      ? undefined
      : await deps.db.row(treeOf, [...candidates(deps, chainIds), address, input.depth]);
  if (!row || address === null) {
    throw new AppError(
      'address_not_activated',
      address === null
        ? 'this account has no wallet: sign in with Ethereum to take a place in a tree'
        : `${getAddress(address)} has not called activate on the FLOW protocol of ` +
            (input.chainId === undefined ? 'any configured chain' : `chain ${input.chainId}`),
    );
  }
  return treeView(address, row, input.depth);
}
