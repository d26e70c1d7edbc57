import { ApiMetrics, type ScrapeSources } from '../../api/metrics/api-metrics';
import { loadConfig, type ConfigError } from '../../shared/config';
import { createLogger } from '../../shared/logger';
import { Exposition } from '../helpers/prometheus';

/** docs/metrics.md: the settings and the API registry, without a server. */

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (err) {
    return (err as ConfigError).problems;
  }
}

describe('metrics settings', () => {
  it('are off by default', () => {
    const config = loadConfig({});
    expect(config.metricsToken).toBeUndefined();
    expect(config.workerMetricsAddress).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: '', WORKER_METRICS_ADDRESS: '' })).toMatchObject({
      metricsToken: undefined,
      workerMetricsAddress: undefined,
    });
  });

  it('take a socket address the exporter can bind, IPv4 or IPv6', () => {
    for (const address of ['127.0.0.1:9464', '0.0.0.0:9464', '[::1]:9464', '[::]:1']) {
      expect(loadConfig({ WORKER_METRICS_ADDRESS: address }).workerMetricsAddress).toBe(address);
    }
    for (const address of [
      'localhost:9464',
      '127.0.0.1',
      '127.0.0.1:0',
      '127.0.0.1:65536',
      ':9464',
    ]) {
      expect(problemsOf({ WORKER_METRICS_ADDRESS: address })).toEqual([
        'WORKER_METRICS_ADDRESS: must be <IP>:<port>, e.g. 127.0.0.1:9464',
      ]);
    }
  });

  it('take a token of 16 or more printable characters', () => {
    const token = 'a-metrics-token-0123';
    expect(loadConfig({ METRICS_TOKEN: token }).metricsToken).toBe(token);
    for (const bad of ['too-short', 'has a space in it, long enough']) {
      expect(problemsOf({ METRICS_TOKEN: bad })).toEqual([
        'METRICS_TOKEN: must be 16 or more printable characters, no spaces',
      ]);
    }
  });
});

describe('the API registry', () => {
  const logged: Record<string, unknown>[] = [];
  const logger = createLogger('warn', 'test', {
    write: (line: string) => void logged.push(JSON.parse(line) as Record<string, unknown>),
  });
  const sources = (overrides: Partial<ScrapeSources> = {}): ScrapeSources => ({
    openStreams: () => 2,
    openMarketStreams: () => 3,
    marketOutboxLagSeconds: async () => 4.5,
    outboxLagSeconds: async () => 12.5,
    indexedBlockAges: async () => [
      { chainId: 56, ageSeconds: 3 },
      { chainId: 97, ageSeconds: 40 },
    ],
    ...overrides,
  });
  const scrape = async (metrics: ApiMetrics) => Exposition.parse(await metrics.registry.metrics());

  it('reads the scrape-time gauges when scraped', async () => {
    const metrics = await scrape(
      new ApiMetrics({ logger, processMetrics: false, sources: sources() }),
    );
    expect(metrics.value('svc_sse_open_streams')).toBe(2);
    expect(metrics.value('svc_market_streams_open')).toBe(3);
    expect(metrics.value('svc_market_outbox_lag_seconds')).toBe(4.5);
    expect(metrics.value('svc_webhook_outbox_lag_seconds')).toBe(12.5);
    expect(metrics.value('svc_chain_indexed_block_age_seconds', { chain_id: '97' })).toBe(40);
    expect(metrics.value('svc_chain_indexed_block_age_seconds', { chain_id: '56' })).toBe(3);
    expect(metrics.families.has('process_cpu_seconds_total')).toBe(false);
  });

  it('leaves out a series whose read failed, logs it, and still answers', async () => {
    let failing = false;
    const registry = new ApiMetrics({
      logger,
      processMetrics: false,
      sources: sources({
        outboxLagSeconds: async () => {
          if (failing) throw new Error('connection terminated');
          return 1;
        },
      }),
    });
    expect((await scrape(registry)).value('svc_webhook_outbox_lag_seconds')).toBe(1);
    failing = true;
    const metrics = await scrape(registry);
    // Not the last value read: a stale lag would hide the outage.
    expect(metrics.samples('svc_webhook_outbox_lag_seconds')).toEqual([]);
    expect(metrics.value('svc_sse_open_streams')).toBe(2);
    expect(logged.at(-1)).toMatchObject({ msg: 'metrics: could not read the outbox lag' });
  });

  it('collects Node process figures when asked', async () => {
    const metrics = await scrape(
      new ApiMetrics({ logger, processMetrics: true, sources: sources() }),
    );
    expect(metrics.family('process_cpu_seconds_total').type).toBe('COUNTER');
    expect(metrics.family('nodejs_eventloop_lag_seconds').type).toBe('GAUGE');
  });
});
