import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { Redis } from 'ioredis';
import { Client as PgClient } from 'pg';
import { tokenStreamText, type MarketEventRow } from '../api/sse/market-frames';
import { Sql } from '../shared/db/sql';
import type { Logger } from '../shared/logger';
import {
  announceMarketEvents,
  insertMarketEvents,
  lockMarketEvents,
} from '../shared/market/events';
import { median, printColumns } from './hot-reads-report';
import type { ServerProcess as ApiProcess } from './hot-reads-processes';
import { BASELINE_PATH } from './sse-baseline';
import { sendEvents, type Stream } from './sse-fanout';
import { settle, type ServerProcess as BaselineProcess } from './sse-processes';
import { closeSockets, Deliveries, percentile, subscribeMany } from './sse-subscribers';

/**
 * One trade fanned out to the subscribers of one token's stream (`GET /tokens/:slug/stream`)
 * on ONE API process as deployed, side by side with the bare `node:http` SSE server of
 * bench/sse-baseline.ts (one Redis channel, each message written to every open response).
 *
 * Ours goes the way the indexer's does: a `trades` row written into `market_events` with
 * `insertMarketEvents` under `lockMarketEvents` in one transaction, then the announcement
 * (`announceMarketEvents`), which the API's market hub picks up, reads from the outbox and
 * writes to every stream (api/sse/market-hub.ts, market-frames.ts). The row's payload has the
 * shape `insertTradeEvents` (workers/chain/market.ts) builds for one trade: one tick tuple and
 * the latest bar of each stored resolution. The baseline is sent, per event, the exact text our
 * stream writes for that row (`tokenStreamText`, the default `1m` bars): a `tick` and a `bar`.
 *
 * Token streams have no tier (unlike project streams, no key and no batching): anonymous
 * subscribers get each event as it happens, so they subscribe without headers. The send time
 * rides in the tick's `txHash` (µs of this process's `performance.now()` as the hash's digits),
 * the one field the stream passes through unchanged. Latency: ours append + announce →
 * receive (the append's own time is printed apart), the baseline publish → receive. Beside
 * it, each server's CPU time per delivery while the events were sent.
 */

/** Stored resolutions: a `trades` event carries the latest bar of each. */
const BAR_RESOLUTIONS = [60, 300, 900, 3600, 14400, 86400, 604800];
/** What a fresh token stream asks for by default (`resolutions=1m`). */
const STREAM_RESOLUTIONS = [60];
const WARM_UP_SUBSCRIBERS = 50;
const WARM_UP_EVENTS = 3;
const SETTLE_TIMEOUT_MS = 20_000;
const TX_HASH_STAMP = /"txHash":"0x0*(\d+)"/g;

/** Delivery samples from the tick's `txHash` stamp. */
class TickDeliveries extends Deliveries {
  override sentTimes(text: string): number[] {
    return Array.from(text.matchAll(TX_HASH_STAMP), (match) => Number(match[1]) / 1000);
  }
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const ms = (value: number) => value.toFixed(1);

/**
 * CPU time (user + system) a process has used so far, in µs, from /proc (Linux; NaN
 * elsewhere): the same reading for our API, a plain node process without an IPC channel, and
 * for the baseline. Clock ticks of 10 ms (USER_HZ 100), so it is read over a whole phase.
 */
function cpuMicros(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return NaN;
  }
}

/** A `trades` payload of one trade, as `insertTradeEvents` builds it, stamped with `sentAt`. */
function tradePayload(sentAt: number, n: number) {
  const block = 2_000_000 + n;
  const price = 1_000_000_000_000n + BigInt(n) * 1_000_000n;
  const amount = 123_456_789_000_000_000_000n;
  // Epoch milliseconds, as the indexer writes a tick's time (`epochMs`); the API formats it.
  const time = Date.now();
  const bucket = (seconds: number) => Math.floor(Date.now() / 1000 / seconds) * seconds;
  return {
    blockNumber: block,
    ticks: [
      [
        block,
        7,
        `0x${String(Math.round(sentAt * 1000)).padStart(64, '0')}`,
        time,
        'buy',
        `0x${'a1'.repeat(20)}`,
        amount.toString(),
        ((amount * price) / 10n ** 18n).toString(),
        price.toString(),
        (price + 1_000_000n).toString(),
        ((price + 1_000_000n) * 10n ** 9n).toString(),
        0.123456,
      ],
    ],
    bars: BAR_RESOLUTIONS.map((seconds) => [
      seconds,
      bucket(seconds),
      price.toString(),
      (price + 1_000_000n).toString(),
      (price - 5_000_000n).toString(),
      (price + 1_000_000n).toString(),
      (amount * 3n).toString(),
      ((amount * 3n * price) / 10n ** 18n).toString(),
      3,
    ]),
  };
}

/** A server under test: where its stream is, how an event reaches it, how it settles. */
interface FanoutTarget {
  port: number;
  pid: number;
  nextStream(): Stream;
  /** Waits until the server has closed every stream of the previous phase. */
  settle(): Promise<void>;
}

export interface MarketFanoutDeps {
  /** The API (`node dist/api/main.js`) and the `/metrics` bearer it was started with. */
  api: ApiProcess;
  metricsToken: string;
  /** The API's database and Redis key prefix. */
  databaseUrl: string;
  apiPrefix: string;
  baseline: BaselineProcess;
  baselineChannel: string;
  redis: Redis;
  logger: Logger;
  slug: string;
  tokenId: string;
}

/** Ours: append under the outbox's lock in a transaction of its own, then announce. */
function ourTarget(deps: MarketFanoutDeps, pg: PgClient): FanoutTarget {
  const sql = new Sql((config) => pg.query(config));
  let sent = 0;
  const streams = async () => {
    const response = await fetch(deps.api.url('/metrics'), {
      headers: { authorization: `Bearer ${deps.metricsToken}` },
    });
    const text = await response.text();
    const open = /^svc_market_streams_open (\d+)/m.exec(text);
    if (!open) throw new Error(`api /metrics: ${response.status}, no svc_market_streams_open`);
    return Number(open[1]);
  };
  return {
    port: deps.api.port,
    pid: deps.api.pid,
    nextStream: () => ({
      path: `/tokens/${deps.slug}/stream`,
      async send() {
        const started = performance.now();
        const payload = tradePayload(started, ++sent);
        await pg.query('begin');
        try {
          await sql.run(lockMarketEvents, []);
          await insertMarketEvents(sql, [{ tokenId: deps.tokenId, kind: 'trades', payload }]);
          await pg.query('commit');
        } catch (err) {
          await pg.query('rollback');
          throw err;
        }
        const appendMs = performance.now() - started;
        await announceMarketEvents(deps.redis, deps.apiPrefix, deps.logger);
        return appendMs;
      },
    }),
    async settle() {
      const deadline = Date.now() + SETTLE_TIMEOUT_MS;
      while ((await streams()) > 0) {
        if (Date.now() > deadline) throw new Error('api: token streams still open');
        await sleep(250);
      }
      await sleep(500);
    },
  };
}

/** The baseline: our stream's text of the same row, published on its channel. */
function baselineTarget(deps: MarketFanoutDeps): FanoutTarget {
  let sent = 0;
  return {
    port: deps.baseline.port,
    pid: deps.baseline.pid,
    nextStream: () => ({
      path: BASELINE_PATH,
      async send() {
        const seq = ++sent;
        const row: MarketEventRow = {
          seq: String(seq),
          tokenId: deps.tokenId,
          kind: 'trades',
          payload: { slug: deps.slug, ...tradePayload(performance.now(), seq) },
        };
        await deps.redis.publish(deps.baselineChannel, tokenStreamText(row, STREAM_RESOLUTIONS));
        return 0;
      },
    }),
    settle: () => settle(deps.baseline),
  };
}

interface PhaseResult {
  p50: number;
  p99: number;
  max: number;
  delivered: number;
  expected: number;
  /** Ours: the append's transaction before the announcement (the baseline: 0). */
  appendP50: number;
  /**
   * The server's CPU µs per delivery while the events were sent (ours: also its heartbeats
   * and outbox polls of that time, which the baseline does not do).
   */
  cpuPerDelivery: number;
}

/** Fresh subscribers, then `events` events, each fully delivered before the next. */
async function measurePhase(
  target: FanoutTarget,
  size: number,
  events: number,
): Promise<PhaseResult> {
  const stream = target.nextStream();
  const deliveries = new TickDeliveries();
  const sockets = await subscribeMany(target.port, stream.path, size, deliveries);
  let result: PhaseResult;
  try {
    await sleep(1000);
    const cpuBefore = cpuMicros(target.pid);
    const append = await sendEvents(stream, deliveries, size, events);
    const cpu = cpuMicros(target.pid) - cpuBefore;
    const sorted = Float64Array.from(deliveries.samples).sort();
    result = {
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      max: sorted[sorted.length - 1] ?? NaN,
      delivered: sorted.length,
      expected: size * events,
      appendP50: percentile(Float64Array.from(append).sort(), 50),
      cpuPerDelivery: cpu / sorted.length,
    };
  } finally {
    closeSockets(sockets);
  }
  await target.settle();
  return result;
}

export interface FanoutOptions {
  size: number;
  events: number;
  rounds: number;
}

export interface FanoutResult {
  ours: PhaseResult[];
  baseline: PhaseResult[];
  /** Median over rounds of ours p99 / baseline p99. */
  p99Ratio: number;
  p50Ratio: number;
  complete: boolean;
}

/**
 * A warm-up of each, then `rounds` rounds of ours and the baseline with fresh subscribers, the
 * order swapped every round; ratios are medians of per-round ratios.
 */
export async function measureMarketFanout(
  deps: MarketFanoutDeps,
  options: FanoutOptions,
): Promise<FanoutResult> {
  const pg = new PgClient({ connectionString: deps.databaseUrl });
  await pg.connect();
  try {
    const ours = ourTarget(deps, pg);
    const baseline = baselineTarget(deps);
    await measurePhase(ours, WARM_UP_SUBSCRIBERS, WARM_UP_EVENTS);
    await measurePhase(baseline, WARM_UP_SUBSCRIBERS, WARM_UP_EVENTS);
    const results = { ours: [] as PhaseResult[], baseline: [] as PhaseResult[] };
    for (let round = 0; round < options.rounds; round++) {
      const order =
        round % 2 === 0 ? (['ours', 'baseline'] as const) : (['baseline', 'ours'] as const);
      for (const side of order) {
        const target = side === 'ours' ? ours : baseline;
        results[side].push(await measurePhase(target, options.size, options.events));
      }
      const [o, b] = [results.ours[round]!, results.baseline[round]!];
      console.log(
        `  fan-out round ${round + 1} (${order.join(' then ')}): p99 ours ${ms(o.p99)} ms, ` +
          `baseline ${ms(b.p99)} ms (${(o.p99 / b.p99).toFixed(2)} ×); delivered ` +
          `${o.delivered}/${o.expected}, ${b.delivered}/${b.expected}`,
      );
    }
    const ratio = (key: 'p50' | 'p99') =>
      median(results.ours.map((o, round) => o[key] / results.baseline[round]![key]));
    return {
      ...results,
      p99Ratio: ratio('p99'),
      p50Ratio: ratio('p50'),
      complete: [...results.ours, ...results.baseline].every((r) => r.delivered === r.expected),
    };
  } finally {
    await pg.end();
  }
}

/** Per round and as medians: latency of ours and the baseline, and their ratios. */
export function printFanout(result: FanoutResult, options: FanoutOptions): void {
  console.log(
    `market fan-out: one trade to ${options.size} subscribers of GET /tokens/:slug/stream, ` +
      `${options.events} events per round (ours: append + announce → receive; baseline: ` +
      'publish → receive)',
  );
  const row = (label: string, o: PhaseResult, b: PhaseResult) => [
    label,
    ms(o.p50),
    ms(b.p50),
    (o.p50 / b.p50).toFixed(2),
    ms(o.p99),
    ms(b.p99),
    (o.p99 / b.p99).toFixed(2),
    ms(o.max),
    ms(b.max),
    ms(o.appendP50),
    o.cpuPerDelivery.toFixed(1),
    b.cpuPerDelivery.toFixed(1),
    `${o.delivered}/${o.expected}, ${b.delivered}/${b.expected}`,
  ];
  const rounds = result.ours.map((o, round) =>
    row(`round ${round + 1}`, o, result.baseline[round]!),
  );
  const med = (list: PhaseResult[], key: keyof PhaseResult) => median(list.map((r) => r[key]));
  const medians = (list: PhaseResult[]): PhaseResult => ({
    p50: med(list, 'p50'),
    p99: med(list, 'p99'),
    max: med(list, 'max'),
    delivered: list.reduce((sum, r) => sum + r.delivered, 0),
    expected: list.reduce((sum, r) => sum + r.expected, 0),
    appendP50: med(list, 'appendP50'),
    cpuPerDelivery: med(list, 'cpuPerDelivery'),
  });
  const summary = row('median', medians(result.ours), medians(result.baseline));
  // The ratios of the summary row are medians of the per-round ratios.
  summary[3] = result.p50Ratio.toFixed(2);
  summary[6] = result.p99Ratio.toFixed(2);
  printColumns(
    [
      'ms',
      'ours p50',
      'base p50',
      'p50 ours/base',
      'ours p99',
      'base p99',
      'p99 ours/base',
      'ours max',
      'base max',
      'ours append p50',
      'ours CPU µs/delivery',
      'base CPU µs/delivery',
      'delivered ours, base',
    ],
    [...rounds, summary],
  );
}
