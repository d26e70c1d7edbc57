import { availableParallelism, loadavg } from 'node:os';
/**
 * The figures of bench/hot-reads.ts: per target and round what autocannon measured, and the
 * table and verdicts printed from them. Every ratio is a median of per-round ratios: a round
 * measures every target once, so a target and its anchor of the same round were measured
 * close in time, under the same load of the shared machine.
 */

/** The goals of issue 13 ("Done when"). */
export const GOALS = { listing: 0.6, me: 0.3, healthz: 0.5, everyRead: 0.5, scale: 0.9 };

export interface Measured {
  /** 2xx responses per second over the whole run. */
  okRps: number;
  /** 2xx responses in the run. */
  ok: number;
  p99: number;
  non2xx: number;
  /** Connection errors and timeouts. */
  errors: number;
}

export type AnchorName = 'hello' | 'pg' | 'redis';

export interface TargetSpec {
  id: string;
  label: string;
  /** The anchors this target is divided by (the pg floor of its own data set). */
  anchors: Record<AnchorName, string>;
  /** Anchors are not reads of ours: no verdict applies to them. */
  anchor: boolean;
}

export type Results = Map<string, Measured[]>;

export function median(values: number[]): number {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Median over rounds of target / other, each round's two runs divided. */
export function pairedRatio(results: Results, target: string, other: string): number {
  const ours = results.get(target) ?? [];
  const theirs = results.get(other) ?? [];
  return median(ours.map((m, round) => m.okRps / (theirs[round]?.okRps ?? NaN)));
}

function failures(results: Results, id: string): number {
  return (results.get(id) ?? []).reduce((sum, m) => sum + m.non2xx + m.errors, 0);
}

/** A figure with thousands separators and `digits` decimals; `-` for none. */
export const fmt = (n: number, digits = 0) =>
  Number.isFinite(n)
    ? n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
    : '-';

/**
 * A run that completes few requests per connection under-measures: its first responses only
 * arrive after about connections / throughput seconds, a large part of a short run.
 */
const FEW_PER_CONNECTION = 5;

/** Rows under a header, the first column left-aligned and the others right-aligned. */
export function printColumns(header: string[], rows: string[][]): void {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]!.length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!),
      )
      .join('  ');
  console.log(`  ${line(header)}`);
  for (const row of rows) console.log(`  ${line(row)}`);
}

export function printTable(specs: TargetSpec[], results: Results, connections: number): void {
  const header = ['target', 'ok req/s', 'p99 ms', '× hello', '× pg floor', '× redis', 'failed'];
  let few = false;
  const rows = specs.map((spec) => {
    const runs = results.get(spec.id) ?? [];
    const short = median(runs.map((m) => m.ok)) < FEW_PER_CONNECTION * connections;
    few ||= short;
    return [
      short ? `${spec.label} †` : spec.label,
      fmt(median(runs.map((m) => m.okRps))),
      fmt(median(runs.map((m) => m.p99))),
      fmt(pairedRatio(results, spec.id, spec.anchors.hello), 2),
      fmt(pairedRatio(results, spec.id, spec.anchors.pg), 2),
      fmt(pairedRatio(results, spec.id, spec.anchors.redis), 2),
      fmt(failures(results, spec.id)),
    ];
  });
  printColumns(header, rows);
  if (few) {
    console.log(
      `  † fewer than ${FEW_PER_CONNECTION} responses per connection in a run: the first came ` +
        'late in the run,\n    so its req/s is under-measured (a longer BENCH_DURATION_S helps)',
    );
  }
}

export interface Verdict {
  goal: string;
  /** The measured ratio (for "every read", the lowest). */
  value: number;
  minimum: number;
  /** Targets the verdict rests on; a failed request in any of their rounds is reported. */
  targets: string[];
  detail?: string;
}

export function printVerdicts(verdicts: Verdict[], results: Results): boolean {
  let allMet = true;
  for (const verdict of verdicts) {
    const met = verdict.value >= verdict.minimum;
    allMet &&= met;
    const failed = verdict.targets.reduce((sum, id) => sum + failures(results, id), 0);
    console.log(
      `  ${met ? 'met    ' : 'NOT met'}  ${verdict.goal}: ${fmt(verdict.value, 2)}` +
        (verdict.detail ? ` (${verdict.detail})` : '') +
        (failed > 0 ? ` [${failed} failed requests in its rounds: not a clean measurement]` : ''),
    );
  }
  return allMet;
}

/** The table, then the goals as verdicts (`large`: the scale goal too). */
export function report(
  targets: TargetSpec[],
  results: Results,
  options: { large: boolean; connections: number },
): void {
  console.log('hot-reads: medians over rounds (ratios: medians of per-round ratios)');
  printTable(targets, results, options.connections);
  const reads = targets.filter((t) => !t.anchor);
  const lowest = reads
    .map((t) => ({ t, ratio: pairedRatio(results, t.id, t.anchors.pg) }))
    .sort((a, b) => a.ratio - b.ratio)[0];
  const below = reads.filter(
    (t) => pairedRatio(results, t.id, t.anchors.pg) < GOALS.everyRead,
  ).length;
  const verdicts = [
    {
      goal: `keyed listing ≥ ${GOALS.listing} × pg floor`,
      value: pairedRatio(results, 'listing-keyed', 'pg-small'),
      minimum: GOALS.listing,
      targets: ['listing-keyed', 'pg-small'],
    },
    {
      goal: `keyed GET /me ≥ ${GOALS.me} × hello`,
      value: pairedRatio(results, 'me', 'hello'),
      minimum: GOALS.me,
      targets: ['me', 'hello'],
    },
    {
      goal: `GET /healthz ≥ ${GOALS.healthz} × hello`,
      value: pairedRatio(results, 'healthz', 'hello'),
      minimum: GOALS.healthz,
      targets: ['healthz', 'hello'],
    },
    {
      goal: `every read ≥ ${GOALS.everyRead} × pg floor`,
      value: lowest?.ratio ?? NaN,
      minimum: GOALS.everyRead,
      targets: reads.map((t) => t.id),
      detail: `lowest: ${lowest?.t.label.trim()}; ${below} of ${reads.length} below`,
    },
  ];
  if (options.large) {
    const floors = pairedRatio(results, 'pg-large', 'pg-small');
    verdicts.push({
      goal: `keyed listing at 5,000 agents / 500k calls ≥ ${GOALS.scale} × at 200 agents`,
      value: pairedRatio(results, 'listing-keyed-large', 'listing-keyed'),
      minimum: GOALS.scale,
      targets: ['listing-keyed-large', 'listing-keyed'],
      detail: `the pg floor, large/small: ${floors.toFixed(2)}`,
    });
  }
  printVerdicts(verdicts, results);
}

/** The machine's load beside the cores, printed at a bench's start and end. */
export const machineLoad = () =>
  `load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores`;
