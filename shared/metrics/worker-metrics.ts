import { asyncLocalStorage, type Context } from '@temporalio/activity';

/**
 * The series workers add to Temporal's own on the worker's Prometheus endpoint
 * (`WORKER_METRICS_ADDRESS`, docs/metrics.md). They are recorded through the running
 * activity's metric meter, so Temporal's exporter serves them beside its worker metrics, with
 * the activity's `namespace`, `task_queue` and `activity_type` labels added (named as on
 * Temporal's own series by the worker's `temporalMetricTags` interceptor). Outside an activity
 * (a direct call in a test or script) and in a process without the exporter, nothing is
 * recorded.
 */

type MetricMeter = Context['metricMeter'];

/** What one webhook attempt did to its delivery. */
type DeliveryOutcome = 'delivered' | 'failed_retrying' | 'failed_permanently';

export const WEBHOOK_ATTEMPTS = 'svc_webhook_delivery_attempts_total';
export const INDEXER_LAG = 'svc_chain_indexer_lag_blocks';
const INDEXER_ROLLBACKS = 'svc_chain_reorg_rollbacks_total';

/** `Context.current()` without its throw: the store is empty outside an activity. */
function activityMeter(): MetricMeter | null {
  return asyncLocalStorage.getStore()?.metricMeter ?? null;
}

/** `2xx` … `5xx`, or `none` when no response came (connection refused, timeout, refused URL). */
function statusClass(status: number | null): string {
  return status === null ? 'none' : `${Math.floor(status / 100)}xx`;
}

export function recordDeliveryAttempt(outcome: DeliveryOutcome, status: number | null): void {
  activityMeter()
    ?.createCounter(
      WEBHOOK_ATTEMPTS,
      '',
      'Webhook delivery attempts by outcome: delivered, failed_retrying (another attempt ' +
        'follows) or failed_permanently (the delivery is failed), and the status class.',
    )
    .add(1, { outcome, status_class: statusClass(status) });
}

/** Blocks between the chain's head and the last block indexed, as the indexer last saw it. */
export function recordIndexerLag(chainId: number, blocks: number): void {
  activityMeter()
    ?.createGauge(
      INDEXER_LAG,
      'int',
      '',
      'Chain head minus the last indexed block, per chain, set by every indexer pass and range.',
    )
    .set(Math.max(0, blocks), { chain_id: String(chainId) });
}

/** A reorganisation found above the finality line and rolled back. */
export function recordReorgRollback(chainId: number): void {
  activityMeter()
    ?.createCounter(
      INDEXER_ROLLBACKS,
      '',
      'Chain reorganisations the indexer detected above the finality line and rolled back.',
    )
    .add(1, { chain_id: String(chainId) });
}
