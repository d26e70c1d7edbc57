import type { MikroORM } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import { BaseError, ResponseBodyTooLargeError, type Log, type PublicClient } from 'viem';
import type { Config } from '../../shared/config';
import type { TokenTemplate } from '../../shared/db/entities/token';
import { sqlOf, statement } from '../../shared/db/sql';
import type { Logger } from '../../shared/logger';
import { recordIndexerLag, recordReorgRollback } from '../../shared/metrics/worker-metrics';
import type { ChainSyncPassResult } from '../../shared/temporal/workflows';
import { decodeBatch, decodeTreasuryTransfers, isLaunchLog, type Batch, type Role } from './decode';
import {
  afterRollback,
  beforeRollback,
  enqueueTokenWebhooks,
  recordRangeMarket,
  recordStateEvents,
} from './market';
import { rollbackAbove, writeBatch } from './store';
import {
  readTreasuryLogs,
  settleTreasuryTransfers,
  treasuryWatchOf,
  type TreasuryWatch,
} from './treasury';

/**
 * One pass of a chain's indexer (docs/chain.md "Indexer"): detect a reorganisation among the
 * blocks above the finality line and roll it back, then index block ranges from the cursor
 * towards the head, each range in one transaction with the cursor. Safe to run again at any
 * point: all it knows between two ranges is in PostgreSQL.
 */

export interface SyncDeps {
  orm: MikroORM;
  config: Config;
  logger: Logger;
  /** The chain's read client (viem); it never signs. */
  client(chainId: number): PublicClient;
  /** Called after every committed range (the activity's heartbeat). */
  heartbeat?: () => void;
  /**
   * Signals the subscription lifecycle after a `usdt_bep20` payment is confirmed. Absent in a
   * pass run outside the worker: the signals it owes wait for a pass that has one.
   */
  temporal?: Client;
  /** Tells the API processes the market outbox has new events (after the commit). */
  announceMarketEvents?: () => Promise<void>;
}

export interface SyncPassInput {
  chainId: number;
  /** Blocks per eth_getLogs; halved while the provider refuses a range. */
  logRange: number;
  /** Ranges this pass may index before it returns (the workflow calls again at once). */
  maxRanges: number;
  /** Wall-clock budget of the pass. */
  budgetMs: number;
}

/** Addresses per eth_getLogs: providers cap the filter's size. */
const ADDRESS_CHUNK = 500;

export function finalityDepth(config: Config, chainId: number): number {
  return config.chainSync.finalityDepth[chainId] ?? config.chainSync.defaultFinalityDepth;
}

/** A provider's refusal of a block range (too many blocks or results), not an outage. */
export function isRangeRefusal(error: unknown): boolean {
  if (!(error instanceof BaseError)) return false;
  // An answer over the transport's size limit (10 MB): fewer blocks make a smaller one.
  if (error.walk((cause) => cause instanceof ResponseBodyTooLargeError)) return true;
  const refusal = error.walk((cause) => {
    const code = (cause as { code?: unknown }).code;
    return typeof code === 'number' && (code === -32005 || code === -32602 || code <= -32000);
  });
  return (
    refusal !== null &&
    /range|limit|too many|too large|exceed|maximum|max results/i.test(
      `${refusal.message} ${error.details}`,
    )
  );
}

type NoRow = Record<string, never>;

/** The chain's cursor: the next block to index. */
interface CursorRow {
  /** int8, a string. */
  nextBlock: string;
}

const cursor = statement<CursorRow, [chainId: number]>(
  'chain.cursor',
  'select next_block as "nextBlock" from chain_cursors where chain_id = $1',
);

/** An indexed block above the finality line whose hash a later pass re-checks. */
interface RecentBlockRow {
  /** int8, a string. */
  number: string;
  hash: string;
}

const recentBlocks = statement<RecentBlockRow, [chainId: number]>(
  'chain.recent_blocks',
  'select number, hash from chain_blocks where chain_id = $1 order by number desc',
);

/** After a rollback: the cursor back to the first block above the common ancestor. */
const rewindCursor = statement<NoRow, [nextBlock: number, chainId: number]>(
  'chain.rewind_cursor',
  `update chain_cursors set next_block = least(next_block, $1::bigint), updated_at = now()
    where chain_id = $2`,
);

/** Graduations whose block has become final: `graduating` tokens become `sentient`. */
const settleGraduations = statement<TokenIdRow, [chainId: number, safeBlock: number]>(
  'chain.settle_graduations',
  `update tokens t set state = 'sentient'
     from token_trades g
    where g.chain_id = $1 and g.kind = 'graduation' and g.block_number <= $2
      and t.chain_id = g.chain_id and lower(t.instance) = g.instance and t.state = 'graduating'
   returning t.id`,
);

/**
 * Outbox events older than the streams keep (24 hours, plus an hour's margin): a client whose
 * `Last-Event-ID` is older gets a `reset` (docs/chain.md "Market data").
 */
const pruneMarketEvents = statement<NoRow, []>(
  'chain.prune_market_events',
  `delete from market_events where created_at < now() - interval '25 hours'`,
);

/** The newest final indexed block and its time (docs/chain.md "Market data"). */
const setFinal = statement<NoRow, [chainId: number, finalBlock: number, finalTime: string]>(
  'chain.set_final',
  `update chain_cursors set final_block = greatest(final_block, $2::int8),
          final_time = greatest(final_time, $3::timestamptz)
    where chain_id = $1`,
);

/** The range's blocks above the finality line, as one JSON document of `{number, hash}`. */
const upsertBlocks = statement<NoRow, [chainId: number, blocks: string]>(
  'chain.upsert_blocks',
  `insert into chain_blocks (chain_id, number, hash)
   select $1::int, number, hash from jsonb_to_recordset($2::jsonb) as r(number bigint, hash text)
   on conflict (chain_id, number) do update set hash = excluded.hash`,
);

/** Blocks at or below the finality line need no re-check. */
const forgetFinalBlocks = statement<NoRow, [chainId: number, safeBlock: number]>(
  'chain.forget_final_blocks',
  'delete from chain_blocks where chain_id = $1 and number <= $2',
);

/** Pending tokens created before `deadline` that no indexed launch linked. */
const failOverdueLaunches = statement<TokenIdRow, [chainId: number, deadline: string]>(
  'chain.fail_overdue_launches',
  `update tokens set state = 'failed'
    where chain_id = $1 and state = 'pending' and instance is null
      and created_at < $2::timestamptz
   returning id`,
);

/** Live tokens created with an instance before `headTime` that no configured factory launched. */
const failUnlaunchedInstances = statement<TokenIdRow, [chainId: number, headTime: string]>(
  'chain.fail_unlaunched_instances',
  `update tokens t set state = 'failed'
    where t.chain_id = $1 and t.state = 'live' and t.instance is not null
      and t.created_at < $2::timestamptz
      and not exists (select 1 from chain_launches l
                       where l.chain_id = t.chain_id and l.instance = lower(t.instance)
                         and l.template = t.template)
   returning t.id`,
);

interface TokenIdRow {
  id: string;
}

/** The cursor past the range, with the time of the range's last block. */
const advanceCursor = statement<NoRow, [chainId: number, nextBlock: number, headTime: string]>(
  'chain.advance_cursor',
  `insert into chain_cursors (chain_id, next_block, head_time, updated_at)
   values ($1, $2, $3, now())
   on conflict (chain_id) do update
      set next_block = excluded.next_block, head_time = excluded.head_time,
          updated_at = excluded.updated_at`,
);

/** Every launch indexed on the chain, with the dpnm contracts or the virtuals curve beside it. */
interface LaunchRolesRow {
  instance: string;
  protocol: string | null;
  gwt: string | null;
  /** virtuals: the curve's `CurveCreated` arguments (integer strings). */
  virtualPayment: string | null;
  curveSupply: string | null;
}

const launchesOf = statement<LaunchRolesRow, [chainId: number]>(
  'chain.launches',
  `select l.instance, l.protocol, l.gwt, c.args->>'virtualPayment' as "virtualPayment",
          c.args->>'reserveToken' as "curveSupply"
     from chain_launches l
     left join lateral (
       select e.args from chain_events e
        where e.chain_id = l.chain_id and e.instance = l.instance and e.name = 'CurveCreated'
        order by e.block_number desc, e.log_index desc limit 1) c on l.template = 'virtuals'
    where l.chain_id = $1`,
);

export async function syncPass(deps: SyncDeps, input: SyncPassInput): Promise<ChainSyncPassResult> {
  const { chainId } = input;
  const started = Date.now();
  const client = deps.client(chainId);
  const depth = finalityDepth(deps.config, chainId);
  const em = deps.orm.em.fork();
  const head = Number(await client.getBlockNumber());
  const safe = head - depth;

  const rolledBackTo = await checkForReorg(deps, em, client, chainId, head);
  let nextBlock = await cursorOf(em, chainId, deps.config.chainSync.startBlocks[chainId] ?? 0);
  // Blocks from the cursor to the head (docs/metrics.md), here and after every range.
  recordIndexerLag(chainId, head - nextBlock + 1);
  let range = input.logRange;
  let logs = 0;
  const roles = await rolesOf(deps, em, chainId);
  const watch = treasuryWatchOf(deps.config, chainId);
  const readFrom = (from: number, size: number) => {
    const read = readRange(client, roles, watch, from, Math.min(head, from + size - 1));
    // Awaited later; until then a failure must not count as unhandled.
    read.catch(() => undefined);
    return read;
  };
  let next = nextBlock <= head ? readFrom(nextBlock, range) : null;
  for (let ranges = 0; next && ranges < input.maxRanges; ranges++) {
    let read: RangeRead;
    try {
      read = await next;
    } catch (error) {
      if (range > 1 && isRangeRefusal(error)) {
        range = Math.max(1, Math.floor(range / 2));
        deps.logger.warn({ chainId, from: nextBlock, range }, 'log range refused; halving');
        next = readFrom(nextBlock, range);
        continue;
      }
      throw error;
    }
    // The next range is read from the chain while this one is written: the two wait on
    // different servers. Its launches are known by now (readRange added them to `roles`).
    const more =
      read.to < head && ranges + 1 < input.maxRanges && Date.now() - started <= input.budgetMs;
    next = more ? readFrom(read.to + 1, range) : null;
    await writeRange(deps, em, chainId, read, safe);
    logs += read.logs.length;
    nextBlock = read.to + 1;
    recordIndexerLag(chainId, head - read.to);
    deps.heartbeat?.();
  }
  // The figures that move with the head alone: treasury transfers and graduations becoming
  // final, and how far the candles are final.
  if (watch) await settleTreasuryTransfers(deps, em, chainId, safe);
  const finalBlock = Math.min(safe, nextBlock - 1);
  const finalHeader =
    finalBlock >= 0 ? await client.getBlock({ blockNumber: BigInt(finalBlock) }) : null;
  const settledEvents = await em.transactional(async (tx) => {
    const sql = sqlOf(tx);
    const settled = await sql.rows(settleGraduations, [chainId, safe]);
    const wrote = await recordStateEvents(
      sql,
      settled.map(({ id }) => ({ tokenId: id, state: 'sentient' as const })),
      finalBlock,
    );
    if (finalHeader) {
      const finalTime = new Date(Number(finalHeader.timestamp) * 1000).toISOString();
      await sql.run(setFinal, [chainId, finalBlock, finalTime]);
    }
    return wrote;
  });
  if (settledEvents) await deps.announceMarketEvents?.();
  await sqlOf(em).run(pruneMarketEvents, []);
  return { nextBlock, head, caughtUp: nextBlock > head, logRange: range, logs, rolledBackTo };
}

async function cursorOf(
  em: ReturnType<MikroORM['em']['fork']>,
  chainId: number,
  startBlock: number,
): Promise<number> {
  const row = await sqlOf(em).row(cursor, [chainId]);
  return row ? Number(row.nextBlock) : startBlock;
}

/**
 * Compares the stored hashes of unfinalized indexed blocks with the chain's. The highest one
 * matching means its whole ancestry matches (each block commits to its parent), which is one
 * call on every pass; otherwise every row from the lowest differing block up is rolled back,
 * and the cursor goes back with them.
 */
async function checkForReorg(
  deps: SyncDeps,
  em: ReturnType<MikroORM['em']['fork']>,
  client: PublicClient,
  chainId: number,
  head: number,
): Promise<number | null> {
  const stored = await sqlOf(em).rows(recentBlocks, [chainId]);
  if (stored.length === 0) return null;
  const hashAt = async (number: number): Promise<string | null> => {
    if (number > head) return null;
    const block = await client.getBlock({ blockNumber: BigInt(number) }).catch(() => null);
    return block?.hash ?? null;
  };
  const top = stored[0]!;
  if ((await hashAt(Number(top.number))) === top.hash) return null;
  const chainHashes = await Promise.all(stored.map((block) => hashAt(Number(block.number))));
  let lowestDiffering = Number(top.number);
  stored.forEach((block, i) => {
    if (chainHashes[i] !== block.hash)
      lowestDiffering = Math.min(lowestDiffering, Number(block.number));
  });
  const ancestor = lowestDiffering - 1;
  const reverted = await em.transactional(async (tx) => {
    const sql = sqlOf(tx);
    const market = await beforeRollback(sql, chainId, ancestor);
    const states = await rollbackAbove(tx, chainId, ancestor);
    const wrote = await afterRollback(sql, market, states);
    await sql.run(rewindCursor, [ancestor + 1, chainId]);
    return wrote;
  });
  if (reverted) await deps.announceMarketEvents?.();
  deps.logger.warn({ chainId, ancestor }, 'chain reorganisation: rolled back above the ancestor');
  recordReorgRollback(chainId);
  return ancestor;
}

interface RangeRead {
  from: number;
  to: number;
  /** Every indexed contract's logs of the range, in chain order. */
  logs: Log[];
  /** The USDT token's transfers to the treasury (none on other chains). */
  treasuryLogs: Log[];
  /** The range's last block (its hash and time). */
  end: { hash: string; timestamp: bigint };
  /**
   * The logs decoded into rows, here rather than in the write: the next range is decoded
   * while the previous one's transaction waits on PostgreSQL (its CPU time was a fifth of
   * the indexer's critical path; bench/README.md "chain-indexer").
   */
  batch: Batch;
}

/**
 * Reads blocks `from`..`to`: the factories' logs first, so that tokens (and dpnm protocols)
 * launched in the range are added to `roles` and their own logs of the range read as well.
 * The treasury's USDT transfers need no launch: they are read alongside, in the same JSON-RPC
 * batch as the factories' logs.
 */
async function readRange(
  client: PublicClient,
  roles: Map<string, Role>,
  watch: TreasuryWatch | null,
  from: number,
  to: number,
): Promise<RangeRead> {
  const factories = [...roles].filter(([, role]) => role.kind === 'factory').map(([a]) => a);
  const span = { fromBlock: BigInt(from), toBlock: BigInt(to) };
  const treasuryRead = watch ? readTreasuryLogs(client, watch, span) : Promise.resolve([]);
  // Awaited below; a failure of the factories' read first must not leave it unhandled.
  treasuryRead.catch(() => undefined);
  const factoryLogs = factories.length
    ? await client.getLogs({ address: factories as `0x${string}`[], ...span })
    : [];
  const launched = decodeBatch(
    factoryLogs.filter(isLaunchLog),
    (address) => roles.get(address),
    () => '',
  );
  for (const launch of launched.launches) {
    roles.set(launch.instance, { kind: 'token', instance: launch.instance });
  }
  for (const event of launched.events) {
    if (event.name !== 'CurveCreated') continue;
    roles.set(event.instance, {
      kind: 'token',
      instance: event.instance,
      curve: {
        virtualPayment: BigInt(event.args.virtualPayment!),
        supply: BigInt(event.args.reserveToken!),
      },
    });
  }
  for (const dpnm of launched.dpnmLaunches) {
    roles.set(dpnm.protocol, { kind: 'protocol', instance: dpnm.instance });
    roles.set(dpnm.gwt, { kind: 'token', instance: dpnm.gwt });
  }
  const watched = [...roles].filter(([, role]) => role.kind !== 'factory').map(([a]) => a);
  const reads: Promise<Log[]>[] = [];
  for (let i = 0; i < watched.length; i += ADDRESS_CHUNK) {
    const address = watched.slice(i, i + ADDRESS_CHUNK) as `0x${string}`[];
    reads.push(client.getLogs({ address, ...span }));
  }
  const [contractLogs, end, treasuryLogs] = await Promise.all([
    Promise.all(reads),
    client.getBlock({ blockNumber: BigInt(to) }),
    treasuryRead,
  ]);
  const logs = [...factoryLogs, ...contractLogs.flat()].sort(
    (a, b) => Number(a.blockNumber! - b.blockNumber!) || a.logIndex! - b.logIndex!,
  );
  const times = await blockTimes(client, [...logs, ...treasuryLogs]);
  const timeOf = (block: number) =>
    times.get(block) ?? new Date(Number(end.timestamp) * 1000).toISOString();
  const batch = {
    ...decodeBatch(logs, (address) => roles.get(address), timeOf),
    treasuryTransfers: watch
      ? decodeTreasuryTransfers(treasuryLogs, watch.token, watch.treasury, timeOf)
      : [],
  };
  return { from, to, logs, treasuryLogs, end, batch };
}

/** Writes a read range in one transaction with the cursor past it. */
async function writeRange(
  deps: SyncDeps,
  em: ReturnType<MikroORM['em']['fork']>,
  chainId: number,
  { from, to, logs, treasuryLogs, end, batch }: RangeRead,
  safe: number,
): Promise<void> {
  // Hashes to re-check on later passes: every block above the finality line that rows or the
  // cursor rest on.
  const recent = new Map<number, string>();
  for (const log of [...logs, ...treasuryLogs]) {
    if (Number(log.blockNumber) > safe) recent.set(Number(log.blockNumber), log.blockHash!);
  }
  if (to > safe) recent.set(to, end.hash);
  const headTime = new Date(Number(end.timestamp) * 1000).toISOString();
  const timeoutMs = deps.config.launchTimeoutHours * 3_600_000;
  let announce = false;
  const changes = await em.transactional(async (tx) => {
    const changed = await writeBatch(tx, chainId, batch, safe);
    const sql = sqlOf(tx);
    if (recent.size > 0) {
      const blocks = [...recent].map(([number, hash]) => ({ number, hash }));
      await sql.run(upsertBlocks, [chainId, JSON.stringify(blocks)]);
    }
    await sql.run(forgetFinalBlocks, [chainId, safe]);
    // Overdue launches, by the chain's clock: the indexed blocks reach past the deadline and
    // showed no launch. A token created with an instance that no configured factory launched
    // is failed once the index has passed its creation.
    const failed = [
      ...(await sql.rows(failOverdueLaunches, [
        chainId,
        new Date(Date.parse(headTime) - timeoutMs).toISOString(),
      ])),
      ...(await sql.rows(failUnlaunchedInstances, [chainId, headTime])),
    ];
    for (const { id } of failed) changed.push({ tokenId: id, state: 'failed', txHash: null });
    announce = await recordRangeMarket(sql, {
      chainId,
      fromBlock: from,
      toBlock: to,
      headTime,
      batch,
      states: changed,
    });
    await enqueueTokenWebhooks(tx, changed, to);
    await sql.run(advanceCursor, [chainId, to + 1, headTime]);
    return changed;
  });
  // After the commit: what a token's page now shows.
  if (announce) await deps.announceMarketEvents?.();
  for (const { tokenId, state } of changes) {
    deps.logger.info({ chainId, tokenId, state, block: to }, 'token state changed by the chain');
  }
}

/** Factories of the chain's configuration, and every launch indexed so far with its contracts. */
async function rolesOf(
  deps: SyncDeps,
  em: ReturnType<MikroORM['em']['fork']>,
  chainId: number,
): Promise<Map<string, Role>> {
  const roles = new Map<string, Role>();
  const factories = deps.config.launchFactories[chainId] ?? {};
  for (const [template, address] of Object.entries(factories)) {
    roles.set(address.toLowerCase(), { kind: 'factory', template: template as TokenTemplate });
  }
  const launches = await sqlOf(em).rows(launchesOf, [chainId]);
  for (const launch of launches) {
    const curve =
      launch.virtualPayment !== null && launch.curveSupply !== null
        ? { virtualPayment: BigInt(launch.virtualPayment), supply: BigInt(launch.curveSupply) }
        : undefined;
    roles.set(launch.instance, { kind: 'token', instance: launch.instance, curve });
    if (launch.protocol)
      roles.set(launch.protocol, { kind: 'protocol', instance: launch.instance });
    if (launch.gwt) roles.set(launch.gwt, { kind: 'token', instance: launch.gwt });
  }
  return roles;
}

/** Block timestamps of the logs: from the logs when the node includes them, else headers. */
async function blockTimes(
  client: PublicClient,
  logs: readonly Log[],
): Promise<Map<number, string>> {
  const times = new Map<number, string>();
  const missing = new Set<number>();
  for (const log of logs) {
    const block = Number(log.blockNumber);
    // Once per block: a busy block has hundreds of logs.
    if (times.has(block)) continue;
    const stamp = (log as { blockTimestamp?: bigint | null }).blockTimestamp;
    if (typeof stamp === 'bigint') times.set(block, new Date(Number(stamp) * 1000).toISOString());
    else missing.add(block);
  }
  for (const block of missing) {
    if (times.has(block)) continue;
    const header = await client.getBlock({ blockNumber: BigInt(block) });
    times.set(block, new Date(Number(header.timestamp) * 1000).toISOString());
  }
  return times;
}
