import { performance } from 'node:perf_hooks';
import type { Client } from '@temporalio/client';
import type { Client as PgClient } from 'pg';
import type { Address, PublicClient } from 'viem';
import { chainSyncInput, ensureChainSync } from '../api/maintenance';
import type { Config } from '../shared/config';
import { mainTaskQueue, workflowIds } from '../shared/temporal';
import type { ChainActivities } from '../workers/activities/chain';
import type { BenchChain } from './chain-indexer-chain';

/**
 * The three ways bench/chain-indexer.ts indexes the same chain, and the checks that the index
 * is right. Each run starts from an empty index (`resetIndex`) and ends at the chain's head.
 */

export const CHAIN_ID = 31337;
/** workflows/chain-sync.ts `PASS` (not exported): what one activity call may do. */
const PASS = { maxRanges: 50, budgetMs: 20_000 } as const;
const WORKFLOW_TIMEOUT_MS = 300_000;

export interface IndexRun {
  ms: number;
  /** Logs the run read (ours: as syncPass counts them; floor: as getLogs returned them). */
  logs: number;
  /** Activity calls (ours) or eth_getLogs ranges (floor). */
  steps: number;
  /** The floor's time in eth_getLogs (viem's getLogs) and in its transactions. */
  rpcMs?: number;
  sqlMs?: number;
}

const CHAIN_TABLES = [
  'chain_cursors',
  'chain_blocks',
  'chain_launches',
  'chain_events',
  'token_transfers',
  'token_holders',
  'token_holder_totals',
  'token_trades',
  'dpnm_tree_nodes',
  'dpnm_tree_paths',
];

/**
 * Empties the chain index as a fresh migration leaves it (TRUNCATE: new empty files, no row
 * versions left behind) and sets the bench's tokens back to `pending`, then checkpoints, so
 * no run pays for the dirty pages of the one before.
 */
export async function resetIndex(pg: PgClient): Promise<void> {
  await pg.query(`truncate ${CHAIN_TABLES.join(', ')}`);
  await pg.query(`update tokens set state = 'pending', instance = null where chain_id = $1`, [
    CHAIN_ID,
  ]);
  await pg.query('checkpoint');
}

/**
 * Ours, without Temporal: the activity function the worker registers (`syncChain` of
 * createChainActivities: its viem client with cacheTime 0, batch, no retries, and syncPass),
 * called in a loop exactly as workflows/chain-sync.ts calls it (the same pass limits, the
 * range doubled back after a refusal) until a pass reports `caughtUp`.
 */
export async function indexDirect(
  activities: ChainActivities,
  logRange: number,
): Promise<IndexRun> {
  const started = performance.now();
  let range = logRange;
  let logs = 0;
  let steps = 0;
  for (;;) {
    const result = await activities.syncChain({ chainId: CHAIN_ID, logRange: range, ...PASS });
    steps++;
    logs += result.logs;
    range = Math.min(logRange, result.logRange * 2);
    if (result.caughtUp) break;
  }
  return { ms: performance.now() - started, logs, steps };
}

async function cursor(pg: PgClient): Promise<number> {
  const { rows } = await pg.query<{ next_block: string }>(
    'select next_block from chain_cursors where chain_id = $1',
    [CHAIN_ID],
  );
  return rows[0] ? Number(rows[0].next_block) : 0;
}

/**
 * Ours through Temporal: the chain-sync workflow started as the API starts it
 * (`ensureChainSync`, `chainSyncInput`), run by the worker process, timed from the start call
 * until the cursor in PostgreSQL passes the head (polled every 10 ms); then terminated.
 */
export async function indexViaWorkflow(
  client: Client,
  config: Config,
  pg: PgClient,
  head: number,
  expectedLogs: number,
): Promise<IndexRun> {
  const taskQueue = config.temporal.taskQueue;
  const started = performance.now();
  await ensureChainSync(client, taskQueue, chainSyncInput(config, CHAIN_ID));
  try {
    while ((await cursor(pg)) <= head) {
      if (performance.now() - started > WORKFLOW_TIMEOUT_MS) {
        throw new Error(`the chain-sync workflow did not reach block ${head} in time`);
      }
      await new Promise((done) => setTimeout(done, 10));
    }
    return { ms: performance.now() - started, logs: expectedLogs, steps: 0 };
  } finally {
    await terminateChainSync(client, taskQueue);
  }
}

export async function terminateChainSync(client: Client, taskQueue: string): Promise<void> {
  const id = workflowIds.chainSync(CHAIN_ID, mainTaskQueue(taskQueue));
  await client.workflow
    .getHandle(id)
    .terminate('bench run over')
    .catch((error: unknown) => {
      if ((error as { name?: string }).name !== 'WorkflowNotFoundError') throw error;
    });
}

export const FLOOR_TABLE = `create table if not exists bench_floor_logs (
  chain_id int not null, block_number bigint not null, log_index int not null,
  address text not null, topic0 text, topic1 text, topic2 text, topic3 text, data text not null,
  block_hash text not null, tx_hash text not null, block_time timestamptz not null,
  primary key (chain_id, block_number, log_index))`;

const FLOOR_INSERT = `insert into bench_floor_logs
  select $1, b, i, a, t0, t1, t2, t3, d, bh, th, to_timestamp(ts)
    from unnest($2::bigint[], $3::int[], $4::text[], $5::text[], $6::text[], $7::text[],
                $8::text[], $9::text[], $10::text[], $11::text[], $12::bigint[])
         as u(b, i, a, t0, t1, t2, t3, d, bh, th, ts)
  on conflict do nothing`;

export async function resetFloor(pg: PgClient): Promise<void> {
  await pg.query('truncate bench_floor_logs');
  await pg.query('checkpoint');
}

/**
 * The floor: the least the same work takes on this machine. The head once, then per range of
 * `logRange` blocks one eth_getLogs of the watched addresses (viem, the activity's transport
 * options) and one INSERT … ON CONFLICT DO NOTHING of the raw logs (one statement of arrays,
 * one transaction per range) into a plain table keyed like ours.
 */
export async function indexFloor(
  client: PublicClient,
  pg: PgClient,
  addresses: Address[],
  logRange: number,
): Promise<IndexRun> {
  const started = performance.now();
  const head = Number(await client.getBlockNumber());
  let logs = 0;
  let steps = 0;
  let rpcMs = 0;
  let sqlMs = 0;
  for (let from = 0; from <= head; from += logRange) {
    const to = Math.min(head, from + logRange - 1);
    let at = performance.now();
    const found = await client.getLogs({
      address: addresses,
      fromBlock: BigInt(from),
      toBlock: BigInt(to),
    });
    rpcMs += performance.now() - at;
    at = performance.now();
    steps++;
    logs += found.length;
    if (found.length === 0) continue;
    const topic = (n: number) => found.map((log) => log.topics[n] ?? null);
    await pg.query('begin');
    await pg.query(FLOOR_INSERT, [
      CHAIN_ID,
      found.map((log) => String(log.blockNumber)),
      found.map((log) => log.logIndex),
      found.map((log) => log.address),
      topic(0),
      topic(1),
      topic(2),
      topic(3),
      found.map((log) => log.data),
      found.map((log) => log.blockHash),
      found.map((log) => log.transactionHash),
      found.map((log) => String((log as { blockTimestamp?: bigint }).blockTimestamp ?? 0n)),
    ]);
    await pg.query('commit');
    sqlMs += performance.now() - at;
  }
  return { ms: performance.now() - started, logs, steps, rpcMs, sqlMs };
}

export async function verifyFloor(pg: PgClient, chain: BenchChain): Promise<void> {
  const { rows } = await pg.query<{ n: number }>('select count(*)::int as n from bench_floor_logs');
  if (rows[0]!.n !== chain.counts.total) {
    throw new Error(`floor: ${rows[0]!.n} rows for ${chain.counts.total} logs`);
  }
}

/**
 * The index must be the chain's: as many transfer and trade rows as logs, both launches linked
 * to their tokens (now live), the cursor past the head, and per token as many holders as sent
 * and their balances adding up to the supply outside the curve (read from the contract), with
 * no negative balance. Throws on the first difference.
 */
export async function verifyIndex(
  pg: PgClient,
  chain: BenchChain,
  heldOnChain: Map<string, bigint>,
): Promise<void> {
  const problems: string[] = [];
  const expect = (what: string, got: unknown, want: unknown) => {
    if (String(got) !== String(want))
      problems.push(`${what}: ${String(got)}, expected ${String(want)}`);
  };
  const one = async <T>(sql: string, values: unknown[] = []): Promise<T> =>
    (await pg.query(sql, values)).rows[0] as T;
  const counts = await one<Record<string, number>>(
    `select (select count(*) from token_transfers)::int as transfers,
            (select count(*) from token_trades)::int as trades,
            (select count(*) from chain_launches where token_id is not null)::int as linked,
            (select count(*) from chain_events where name = 'CurveCreated')::int as curves,
            (select next_block from chain_cursors where chain_id = $1)::int as cursor`,
    [CHAIN_ID],
  );
  expect(
    'transfer rows',
    counts.transfers,
    chain.counts.transfers.big + chain.counts.transfers.small,
  );
  expect('trade rows', counts.trades, chain.counts.trades);
  expect('linked launches', counts.linked, chain.counts.launches);
  expect('CurveCreated events', counts.curves, chain.counts.launches);
  expect('cursor', counts.cursor, chain.head + 1);
  for (const token of chain.tokens) {
    const instance = token.instance.toLowerCase();
    const row = await one<{
      state: string;
      instance: string | null;
      holders: number | null;
      held: string | null;
      positive: number;
      sum: string | null;
      negative: number;
    }>(
      `select t.state, t.instance, totals.holders_count as holders, totals.held_supply::text as held,
              (select count(*) from token_holders h
                where h.chain_id = $1 and h.instance = $2 and h.balance > 0)::int as positive,
              (select sum(balance)::text from token_holders h
                where h.chain_id = $1 and h.instance = $2 and h.balance > 0) as sum,
              (select count(*) from token_holders h
                where h.chain_id = $1 and h.instance = $2 and h.balance < 0)::int as negative
         from tokens t
         left join token_holder_totals totals on totals.chain_id = $1 and totals.instance = $2
        where t.id = $3`,
      [CHAIN_ID, instance, token.tokenId],
    );
    expect(`${token.key}: state`, row.state, 'live');
    expect(`${token.key}: instance`, row.instance, token.instance);
    expect(`${token.key}: holders_count`, row.holders, token.holders);
    expect(`${token.key}: holder rows > 0`, row.positive, token.holders);
    expect(`${token.key}: negative balances`, row.negative, 0);
    expect(`${token.key}: held_supply`, row.held, heldOnChain.get(instance));
    expect(`${token.key}: sum of balances`, row.sum, heldOnChain.get(instance));
  }
  if (problems.length > 0) throw new Error(`the index is wrong:\n  ${problems.join('\n  ')}`);
}
