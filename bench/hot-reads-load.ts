import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Client as PgClient } from 'pg';
import type { Measured, Results, TargetSpec } from './hot-reads-report';

/**
 * How bench/hot-reads.ts loads its targets: autocannon in a process of its own (so it never
 * shares a server's event loop), `-c` connections for a fixed time, counting 2xx only.
 */

export interface Target extends TargetSpec {
  url: string;
  /** autocannon `-H` values, `name=value`. */
  headers: string[];
}

export interface LoadOptions {
  durationS: number;
  warmUpS: number;
  /** Seconds of load, not counted, right before each measurement of a target. */
  primeS: number;
  rounds: number;
  connections: number;
}

const SETTLE_TIMEOUT_MS = 60_000;

export async function measure(target: Target, durationS: number, connections: number) {
  const { stdout } = await promisify(execFile)(
    require.resolve('autocannon/autocannon.js'),
    [
      '--json',
      ...['-c', String(connections), '-d', String(durationS)],
      ...target.headers.flatMap((header) => ['-H', header]),
      target.url,
    ],
    { maxBuffer: 64 << 20 },
  );
  const result = JSON.parse(stdout) as {
    duration: number;
    '2xx': number;
    non2xx: number;
    errors: number;
    timeouts: number;
    latency: { p99: number };
  };
  return {
    okRps: result['2xx'] / result.duration,
    ok: result['2xx'],
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  } satisfies Measured;
}

function get(target: Target): Promise<Response> {
  const headers = Object.fromEntries(
    target.headers.map((header) => header.split('=', 2) as [string, string]),
  );
  return fetch(target.url, { headers });
}

/**
 * Every target must answer 200 before anything is counted, and a list must list something:
 * a 401 or an empty page would be a fast lie.
 */
export async function probe(targets: Target[]): Promise<void> {
  for (const target of targets) {
    const response = await get(target);
    const body = await response.text();
    if (response.status !== 200) {
      throw new Error(`${target.label}: ${response.status} ${body.slice(0, 300)}`);
    }
    const { items } = JSON.parse(body) as { items?: unknown[] };
    if (items !== undefined && items.length === 0) {
      throw new Error(`${target.label}: answers an empty list`);
    }
  }
}

/**
 * When autocannon stops, the server still works off the requests it had accepted and their
 * statements keep PostgreSQL busy (seconds, for a slow listing): that must not be counted
 * against the next target. Waits for one more request to the same target, then until no
 * statement of the bench's databases is running.
 */
async function settle(target: Target, pg: PgClient, databasePattern: string): Promise<void> {
  await get(target).then(
    (response) => response.arrayBuffer(),
    () => undefined,
  );
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const { rows } = await pg.query<{ active: number }>(
      `select count(*)::int as active from pg_stat_activity
        where datname like $1 and state = 'active' and backend_type = 'client backend'`,
      [databasePattern],
    );
    if ((rows[0]?.active ?? 0) === 0) return;
    await new Promise((done) => setTimeout(done, 50));
  }
}

/**
 * A warm-up of every target, then `rounds` rounds measuring every target once, each
 * measurement right after `primeS` seconds of uncounted load on the same target; each round
 * starts further along the list, so no target always follows the same one. Prints each round.
 */
export async function runRounds(
  targets: Target[],
  options: LoadOptions,
  pg: PgClient,
  databasePattern: string,
): Promise<Results> {
  const results: Results = new Map(targets.map((target) => [target.id, []]));
  if (options.warmUpS > 0) {
    for (const target of targets) {
      await measure(target, options.warmUpS, options.connections);
      await settle(target, pg, databasePattern);
    }
  }
  const step = Math.max(1, Math.floor(targets.length / options.rounds));
  for (let round = 0; round < options.rounds; round++) {
    const shift = (round * step) % targets.length;
    const order = [...targets.slice(shift), ...targets.slice(0, shift)];
    const figures: string[] = [];
    for (const target of order) {
      // A server that sat idle while the others were measured (the large data set's API, the
      // floors) answers its first seconds slower (closed pool connections, cold caches): each
      // measurement starts on a server that is already serving that target.
      if (options.primeS > 0) await measure(target, options.primeS, options.connections);
      const measured = await measure(target, options.durationS, options.connections);
      await settle(target, pg, databasePattern);
      results.get(target.id)!.push(measured);
      const failed = measured.non2xx + measured.errors;
      figures.push(
        `${target.id} ${measured.okRps.toFixed(0)}${failed ? ` (${failed} failed)` : ''}`,
      );
    }
    printWrapped(`round ${round + 1} (ok req/s):`, figures);
  }
  return results;
}

function printWrapped(title: string, items: string[]): void {
  let line = `  ${title}`;
  for (const item of items) {
    if (line.length + item.length > 98) {
      console.log(line);
      line = '   ';
    }
    line += ` ${item}`;
  }
  console.log(line);
}
