import { performance } from 'node:perf_hooks';
import type { Client as PgClient } from 'pg';
import { createPublicClient, http, type Log, type PublicClient } from 'viem';
import type { Config } from '../shared/config';
import { MikroORM, ormOptions } from '../shared/db/orm';
import { Sql } from '../shared/db/sql';
import type { Logger } from '../shared/logger';
import { decodeBatch, type Role } from '../workers/chain/decode';
import { syncPass } from '../workers/chain/sync';
import type { BenchChain } from './chain-indexer-chain';
import { CHAIN_ID, resetIndex, verifyIndex } from './chain-indexer-index';

/**
 * Where a run of ours spends its time: one more run of syncPass in the workflow's loop with
 * every RPC action of its client timed (a wrapper around the activity's own viem client) and
 * every SQL statement of the indexer timed by its name through the runner (`Sql`'s methods
 * wrapped for the run: from the call to the rows, so round trip and PostgreSQL's work,
 * triggers included). A pass reads the next range while it writes
 * the current one, so RPC and SQL times overlap and may add up to more than the wall time.
 * Decoding and the rows' JSON are timed apart on the same logs afterwards. The
 * instrumentation costs a little itself, so the run is a bit slower than the measured ones.
 */

interface Tally {
  calls: number;
  ms: number;
  rows?: number;
}

const RPC_TIMEOUT_MS = 30_000;

function timedClient(url: string, rpc: Map<string, Tally>, logs: Log[][]): PublicClient {
  // The activity's client (workers/activities/chain.ts).
  const client = createPublicClient({
    cacheTime: 0,
    transport: http(url, { timeout: RPC_TIMEOUT_MS, retryCount: 0, batch: true }),
  });
  const time = async <T>(name: string, call: () => Promise<T>, count?: (t: T) => number) => {
    const started = performance.now();
    const result = await call();
    const tally = rpc.get(name) ?? { calls: 0, ms: 0, rows: 0 };
    tally.calls++;
    tally.ms += performance.now() - started;
    tally.rows! += count?.(result) ?? 0;
    rpc.set(name, tally);
    return result;
  };
  return {
    ...client,
    getBlockNumber: (args?: Parameters<PublicClient['getBlockNumber']>[0]) =>
      time('eth_blockNumber', () => client.getBlockNumber(args)),
    getBlock: ((args: Parameters<PublicClient['getBlock']>[0]) =>
      time('eth_getBlockByNumber', () => client.getBlock(args))) as PublicClient['getBlock'],
    getLogs: ((args: Parameters<PublicClient['getLogs']>[0]) =>
      time(
        'eth_getLogs',
        async () => {
          const found = await client.getLogs(args);
          logs.push(found);
          return found;
        },
        (found) => found.length,
      )) as PublicClient['getLogs'],
  };
}

export async function profileOurs(options: {
  chain: BenchChain;
  config: Config;
  logger: Logger;
  databaseUrl: string;
  pg: PgClient;
  held: Map<string, bigint>;
  logRange: number;
}): Promise<void> {
  const { chain, config } = options;
  const orm = await MikroORM.init(ormOptions(options.databaseUrl, config.databasePoolMax));
  const statements = new Map<string, Tally>();
  const count = (key: string, since: number) => {
    const tally = statements.get(key) ?? { calls: 0, ms: 0 };
    tally.calls++;
    tally.ms += performance.now() - since;
    statements.set(key, tally);
  };
  const unwrap = timeStatements(count);
  const rpc = new Map<string, Tally>();
  const fetched: Log[][] = [];
  const client = timedClient(chain.url, rpc, fetched);
  try {
    await resetIndex(options.pg);
    statements.clear();
    const cpu = process.cpuUsage();
    const started = performance.now();
    let range = options.logRange;
    for (;;) {
      const result = await syncPass(
        { orm, config, logger: options.logger, client: () => client },
        { chainId: CHAIN_ID, logRange: range, maxRanges: 50, budgetMs: 20_000 },
      );
      range = Math.min(options.logRange, result.logRange * 2);
      if (result.caughtUp) break;
    }
    const wall = performance.now() - started;
    const used = process.cpuUsage(cpu);
    await verifyIndex(options.pg, chain, options.held);

    // Apart, on the same logs: decoding and the rows' JSON (one JSON.stringify per table).
    const roles = new Map<string, Role>([
      [chain.factory.toLowerCase(), { kind: 'factory', template: 'virtuals' }],
      ...chain.tokens.map((t): [string, Role] => [
        t.instance.toLowerCase(),
        { kind: 'token', instance: t.instance.toLowerCase() },
      ]),
    ]);
    // Each range's two getLogs calls, factory first, as readRange reads them.
    let decodeMs = 0;
    let jsonMs = 0;
    for (let i = 0; i + 1 < fetched.length; i += 2) {
      const logs = [...fetched[i]!, ...fetched[i + 1]!].sort(
        (a, b) => Number(a.blockNumber! - b.blockNumber!) || a.logIndex! - b.logIndex!,
      );
      let at = performance.now();
      const batch = decodeBatch(
        logs,
        (address) => roles.get(address),
        () => new Date().toISOString(),
      );
      decodeMs += performance.now() - at;
      for (const rows of [batch.transfers, batch.trades, batch.events, batch.launches]) {
        if (rows.length === 0) continue;
        at = performance.now();
        JSON.stringify(rows);
        jsonMs += performance.now() - at;
      }
    }

    console.log(
      `profile: one more run of ours (syncPass in the workflow's loop), ${(wall / 1000).toFixed(1)} s ` +
        `wall, this process's CPU ${((used.user + used.system) / 1e6).toFixed(1)} s`,
    );
    const lines: [string, string, string][] = [];
    for (const [name, tally] of [...rpc].sort((a, b) => b[1].ms - a[1].ms)) {
      lines.push([
        `rpc ${name}`,
        `${tally.calls} calls${tally.rows ? `, ${tally.rows.toLocaleString('en-US')} logs` : ''}`,
        (tally.ms / 1000).toFixed(2),
      ]);
    }
    for (const [name, tally] of [...statements].sort((a, b) => b[1].ms - a[1].ms)) {
      if (tally.ms < 5 && tally.calls < 10) continue;
      lines.push([`sql ${name}`, `${tally.calls} calls`, (tally.ms / 1000).toFixed(2)]);
    }
    lines.push(['decodeBatch (timed apart)', '', (decodeMs / 1000).toFixed(2)]);
    lines.push(['rows → JSON (timed apart)', '', (jsonMs / 1000).toFixed(2)]);
    const widths = [0, 1, 2].map((c) => Math.max(...lines.map((l) => l[c]!.length)));
    for (const line of lines) {
      console.log(
        `  ${line[0].padEnd(widths[0]!)}  ${line[1].padEnd(widths[1]!)}  ${line[2].padStart(widths[2]!)} s`,
      );
    }
  } finally {
    unwrap();
    await orm.close();
  }
}

/**
 * Times every statement run through `Sql` (the indexer's, by their names) until the returned
 * function puts the methods back.
 */
function timeStatements(count: (key: string, since: number) => void): () => void {
  type Method = (this: Sql, query: { name: string }, params: unknown[]) => Promise<unknown>;
  const prototype = Sql.prototype as unknown as Record<'rows' | 'row' | 'run', Method>;
  const originals = (['rows', 'row', 'run'] as const).map((name) => ({
    name,
    method: prototype[name],
  }));
  for (const { name, method } of originals) {
    prototype[name] = async function (this: Sql, query, params) {
      const started = performance.now();
      try {
        return await method.call(this, query, params);
      } finally {
        count(query.name, started);
      }
    };
  }
  return () => {
    for (const { name, method } of originals) prototype[name] = method;
  };
}
