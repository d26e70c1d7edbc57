import type { BurstResult } from './sse-bursts';
import type { ServerMemory } from './sse-processes';

/** The SSE fan-out bench's printed tables: ours and the baseline side by side, per size. */

const GOAL_P99_MS = 250;

/** One server at one number of subscribers. */
export interface PhaseResult {
  p50: number;
  p99: number;
  max: number;
  delivered: number;
  expected: number;
  /** Streams the server held when its memory was read (should be the size). */
  connections: number;
  rssPerConnection: number;
  heapPerConnection: number;
  /** Ours: the append to PostgreSQL before the publish; the baseline has none (0). */
  beforePublishP50: number;
}

export interface SizeResult {
  size: number;
  ours: PhaseResult;
  baseline: PhaseResult;
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const ms = (value: number) => value.toFixed(1);
const ratio = (ours: number, baseline: number) => (ours / baseline).toFixed(2);

function row(cells: (string | number)[], widths: number[]): string {
  return `  ${cells.map((cell, i) => String(cell).padStart(widths[i] ?? 0)).join(' | ')}`;
}

function printTable(header: string[], rows: (string | number)[][]): void {
  const widths = header.map((title, i) =>
    Math.max(title.length, ...rows.map((cells) => String(cells[i]).length)),
  );
  console.log(row(header, widths));
  for (const cells of rows) console.log(row(cells, widths));
}

function printLatency(results: SizeResult[]): void {
  console.log(
    '  latency ms (ours, pro streams: append + publish → receive; baseline: publish → receive)',
  );
  printTable(
    [
      'subscribers',
      'ours p50',
      'base p50',
      'p50 ours/base',
      'ours p99',
      'base p99',
      'p99 ours/base',
      'ours max',
      'base max',
      'ours append p50',
    ],
    results.map(({ size, ours, baseline }) => [
      size,
      ms(ours.p50),
      ms(baseline.p50),
      ratio(ours.p50, baseline.p50),
      ms(ours.p99),
      ms(baseline.p99),
      ratio(ours.p99, baseline.p99),
      ms(ours.max),
      ms(baseline.max),
      ms(ours.beforePublishP50),
    ]),
  );
}

function printMemory(results: SizeResult[]): void {
  console.log('  per open stream after a full GC, KiB ((with N − idle) / N), and deliveries');
  printTable(
    [
      'subscribers',
      'ours RSS',
      'base RSS',
      'RSS ours/base',
      'ours heap',
      'base heap',
      'ours delivered',
      'base delivered',
    ],
    results.map(({ size, ours, baseline }) => [
      size,
      kb(ours.rssPerConnection),
      kb(baseline.rssPerConnection),
      ratio(ours.rssPerConnection, baseline.rssPerConnection),
      kb(ours.heapPerConnection),
      kb(baseline.heapPerConnection),
      `${ours.delivered}/${ours.expected}`,
      `${baseline.delivered}/${baseline.expected}`,
    ]),
  );
  for (const { size, ours, baseline } of results) {
    if (ours.connections !== size || baseline.connections !== size) {
      console.log(
        `  warning: at ${size}, ours held ${ours.connections} streams, ` +
          `the baseline ${baseline.connections}`,
      );
    }
  }
}

export function printResults(
  results: SizeResult[],
  replay: number[],
  idle: { ours: ServerMemory; baseline: ServerMemory },
): void {
  console.log(
    `  idle after warm-up: ours RSS ${kb(idle.ours.rss)} KiB, heap ${kb(idle.ours.heapUsed)} KiB;` +
      ` baseline RSS ${kb(idle.baseline.rss)} KiB, heap ${kb(idle.baseline.heapUsed)} KiB`,
  );
  printLatency(results);
  printMemory(results);
  const largest = results.at(-1);
  if (largest) {
    const met = largest.ours.p99 <= GOAL_P99_MS ? 'met' : 'NOT met';
    console.log(`  goal p99 <= ${GOAL_P99_MS} ms at ${largest.size}: ${met}`);
  }
  const sorted = [...replay].sort((a, b) => a - b);
  console.log(
    `  replay of 1000 events (Last-Event-ID: 0), ${replay.length} runs: ` +
      `median ${ms(sorted[Math.floor(sorted.length / 2)]!)} ms, ` +
      `min ${ms(sorted[0]!)} ms, max ${ms(sorted.at(-1)!)} ms`,
  );
}

/**
 * Bursts: API CPU per delivered event, pro streams (one write per event) vs batched ones (one
 * write per flush); a ratio below 1 is what coalescing saves.
 */
export function printBursts(
  results: { size: number; pro: BurstResult; free: BurstResult }[],
  bursts: number,
  events: number,
): void {
  console.log(
    `  bursts: ${bursts} × ${events} events back to back (append + publish each); pro streams ` +
      'get each as it happens, anonymous ones a batch (SSE_STANDARD_BATCH_MS)',
  );
  const us = (value: number) => value.toFixed(2);
  printTable(
    [
      'subscribers',
      'pro CPU µs/delivery',
      'batched CPU µs/delivery',
      'CPU batched/pro',
      'pro reads/burst',
      'batched reads/burst',
      'pro done after p50',
      'batched done after p50',
      'delivered pro, batched',
    ],
    results.map(({ size, pro, free }) => [
      size,
      us(pro.cpuPerDelivery),
      us(free.cpuPerDelivery),
      ratio(free.cpuPerDelivery, pro.cpuPerDelivery),
      pro.readsPerBurst.toFixed(1),
      free.readsPerBurst.toFixed(1),
      `${ms(pro.completeP50)} ms`,
      `${ms(free.completeP50)} ms`,
      `${pro.delivered}/${pro.expected}, ${free.delivered}/${free.expected}`,
    ]),
  );
}
