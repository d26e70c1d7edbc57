import { loadConfig } from '../shared/config';
import { createLogger, flushLogger, type Logger } from '../shared/logger';
import {
  ensureSearchAttributesRegistered,
  logSearchAttributeRegistration,
} from '../shared/temporal/search-attribute-registration';
import { buildApp } from './app';
import { closeApiDeps, connectApiDeps } from './deps';
import {
  chainSyncInput,
  DISPATCH_POLLS_PER_RUN,
  ensureChainSync,
  ensureHolderRewardsSchedule,
  ensureIdempotencySweep,
  ensureMarketplaceStatsRefresh,
  ensureNotificationDelivery,
  ensurePaymentsReconcile,
  ensureWebhookDispatcher,
} from './maintenance';

const RETRY_MS = 30_000;

/** Runs a start-up step until it succeeds, every 30 s, logging each failure; never throws. */
function retryInBackground(logger: Logger) {
  return (what: string, step: () => Promise<unknown>) => {
    const attempt = () => {
      step().then(
        () => logger.info(`${what}: running`),
        (err: unknown) => {
          logger.warn({ err }, `could not start ${what}; retrying`);
          setTimeout(attempt, RETRY_MS).unref();
        },
      );
    };
    attempt();
  };
}

/** API process: listens until SIGTERM/SIGINT, then stops accepting and drains in-flight work. */
async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const logger = createLogger(config.logLevel, 'api');
  const deps = await connectApiDeps(config, logger);
  const app = buildApp(deps);
  await app.listen({ host: config.host, port: config.port });

  // Temporal may still be starting: keep trying in the background, never block serving.
  const queue = config.temporal.taskQueue;
  const keepTrying = retryInBackground(logger);
  keepTrying('the workflow search attributes', async () =>
    logSearchAttributeRegistration(logger, await ensureSearchAttributesRegistered(deps.temporal)),
  );
  keepTrying('the idempotency sweep', () => ensureIdempotencySweep(deps.temporal, queue));
  keepTrying('the webhook dispatcher', () =>
    ensureWebhookDispatcher(deps.temporal, queue, {
      pollIntervalMs: config.webhookDispatchIntervalMs,
      pollsPerRun: DISPATCH_POLLS_PER_RUN,
    }),
  );
  keepTrying('the marketplace stats refresh', () =>
    ensureMarketplaceStatsRefresh(deps.temporal, queue),
  );
  keepTrying('the holder rewards schedule', () =>
    ensureHolderRewardsSchedule(deps.temporal, queue),
  );
  keepTrying('the payments reconciler', () => ensurePaymentsReconcile(deps.temporal, queue));
  keepTrying('the notification delivery', () => ensureNotificationDelivery(deps.temporal, queue));
  // One indexer per configured chain (docs/chain.md "Indexer").
  for (const chainId of Object.keys(config.chainRpcUrls).map(Number)) {
    keepTrying(`the chain ${chainId} indexer`, () =>
      ensureChainSync(deps.temporal, queue, chainSyncInput(config, chainId)),
    );
  }

  const stop = async (signal: string) => {
    logger.info({ signal }, 'shutting down: draining in-flight requests');
    await app.close();
    await closeApiDeps(deps);
    logger.info('api stopped');
    // Log lines are buffered (shared/logger.ts); an exit, even process.exit, writes the rest.
    await flushLogger(logger);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
