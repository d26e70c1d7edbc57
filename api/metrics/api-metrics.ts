import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Logger } from '../../shared/logger';

/**
 * The metrics of one API instance (docs/metrics.md), in a registry of its own: tests build
 * several apps in one process, and prom-client's global registry would refuse the second
 * app's metrics. Labels are bounded sets only: a route's pattern, never its URL.
 */

/** What a refused request is charged to, as the auth plugin resolved it. */
export type Principal = 'anonymous' | 'user' | 'api_key' | 'internal' | 'bot';

/** The 402s of FLOW spending: a key's spend cap, or a balance that does not cover a call. */
export const SPEND_REFUSALS = ['spend_limit_reached', 'insufficient_flow'] as const;
export type SpendRefusal = (typeof SPEND_REFUSALS)[number];

/** Figures read when Prometheus scrapes; each may fail (then its series is left out). */
export interface ScrapeSources {
  /** Open project streams (SSE) of this instance. */
  openStreams(): number;
  /** Token streams (market data SSE) open on this instance. */
  openMarketStreams(): number;
  /** Age of the oldest market event this instance's streams have not been handed. */
  marketOutboxLagSeconds(): Promise<number>;
  /** Seconds since the oldest outbox event still waiting for the dispatcher; 0 when none. */
  outboxLagSeconds(): Promise<number>;
  /** Per chain, seconds since the timestamp of the last block the indexer committed. */
  indexedBlockAges(): Promise<{ chainId: number; ageSeconds: number }[]>;
}

interface ApiMetricsOptions {
  sources: ScrapeSources;
  logger: Logger;
  /**
   * Node's own figures (CPU, memory, event-loop lag, GC). Off in tests: each collection
   * starts an event-loop monitor and a GC observer that are never stopped, and one jest
   * process builds an app per test file.
   */
  processMetrics: boolean;
}

/** Request durations in seconds: from a cached read (~1 ms) to a slow agent call (30 s). */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export class ApiMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly durations: Histogram<'method' | 'route'>;
  private readonly rateLimited: Counter<'principal'>;
  private readonly spendRefused: Counter<'code'>;

  constructor(options: ApiMetricsOptions) {
    const registers = [this.registry];
    this.requests = new Counter({
      name: 'svc_http_requests_total',
      help: 'HTTP responses sent, by method, route pattern ("unmatched": no route) and status.',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.durations = new Histogram({
      name: 'svc_http_request_duration_seconds',
      help: 'Time from a request arriving to its response sent, by method and route pattern.',
      labelNames: ['method', 'route'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.rateLimited = new Counter({
      name: 'svc_rate_limit_refusals_total',
      help: 'Requests refused with 429 rate_limited, by the kind of caller whose bucket was full.',
      labelNames: ['principal'],
      registers,
    });
    this.spendRefused = new Counter({
      name: 'svc_spend_refusals_total',
      help: 'Requests refused with 402 for FLOW: spend_limit_reached (an API key cap) or insufficient_flow.',
      labelNames: ['code'],
      registers,
    });
    this.addScrapeGauges(options.sources, options.logger);
    if (options.processMetrics) collectDefaultMetrics({ register: this.registry });
  }

  /** One response sent; `seconds` from its arrival (about 1 µs per response). */
  observeResponse(method: string, route: string, status: number, seconds: number): void {
    this.requests.inc({ method, route, status: String(status) });
    this.durations.observe({ method, route }, seconds);
  }

  countRateLimited(principal: Principal): void {
    this.rateLimited.inc({ principal });
  }

  countSpendRefused(code: SpendRefusal): void {
    this.spendRefused.inc({ code });
  }

  /** Gauges whose value is read at scrape time, so they cannot drift from the truth. */
  private addScrapeGauges(sources: ScrapeSources, logger: Logger): void {
    const registers = [this.registry];
    new Gauge({
      name: 'svc_sse_open_streams',
      help: 'Project streams (SSE) open on this API instance.',
      registers,
      collect() {
        this.set(sources.openStreams());
      },
    });
    new Gauge({
      name: 'svc_market_streams_open',
      help: 'Token streams (GET /tokens/stream, /tokens/:slug/stream) open on this API instance.',
      registers,
      collect() {
        this.set(sources.openMarketStreams());
      },
    });
    new Gauge({
      name: 'svc_market_outbox_lag_seconds',
      help: 'Age of the oldest market event this instance has not yet handed to its open token streams (0: caught up, or no stream open).',
      registers,
      async collect() {
        const seconds = await readOrNull(
          () => sources.marketOutboxLagSeconds(),
          'market outbox lag',
          logger,
        );
        if (seconds === null) this.remove();
        else this.set(seconds);
      },
    });
    new Gauge({
      name: 'svc_webhook_outbox_lag_seconds',
      help: 'Age of the oldest webhook outbox event not yet dispatched (0: none waiting). Same on every instance.',
      registers,
      async collect() {
        const seconds = await readOrNull(() => sources.outboxLagSeconds(), 'outbox lag', logger);
        // Unknown is no sample, never 0 (a label-less gauge's reset value) nor the last value.
        if (seconds === null) this.remove();
        else this.set(seconds);
      },
    });
    new Gauge({
      name: 'svc_chain_indexed_block_age_seconds',
      help: "Seconds since the timestamp of the indexer's last committed block, per chain. Same on every instance.",
      labelNames: ['chain_id'],
      registers,
      async collect() {
        this.reset();
        const ages = await readOrNull(() => sources.indexedBlockAges(), 'chain ages', logger);
        for (const { chainId, ageSeconds } of ages ?? []) {
          this.set({ chain_id: String(chainId) }, ageSeconds);
        }
      },
    });
  }
}

/** A scrape still answers when the database does not: the series is left out and logged. */
async function readOrNull<T>(read: () => Promise<T>, what: string, logger: Logger) {
  try {
    return await read();
  } catch (err) {
    logger.warn({ err }, `metrics: could not read the ${what}`);
    return null;
  }
}
