import { loadConfig } from '../shared/config';
import { createLogger, flushLogger } from '../shared/logger';
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

const SWEEP_RETRY_MS = 30_000;

/** API process: listens until SIGTERM/SIGINT, then stops accepting and drains in-flight work. */
async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const logger = createLogger(config.logLevel, 'api');
  const deps = await connectApiDeps(config, logger);
  const app = buildApp(deps);
  await app.listen({ host: config.host, port: config.port });

  // Temporal may still be starting: keep trying in the background, never block serving.
  const startSweep = () => {
    ensureIdempotencySweep(deps.temporal, config.temporal.taskQueue).then(
      () => logger.info('idempotency sweep workflow running'),
      (err: unknown) => {
        logger.warn({ err }, 'could not start the idempotency sweep; retrying');
        setTimeout(startSweep, SWEEP_RETRY_MS).unref();
      },
    );
  };
  startSweep();

  const startDispatcher = () => {
    const input = {
      pollIntervalMs: config.webhookDispatchIntervalMs,
      pollsPerRun: DISPATCH_POLLS_PER_RUN,
    };
    ensureWebhookDispatcher(deps.temporal, config.temporal.taskQueue, input).then(
      () => logger.info('webhook dispatcher workflow running'),
      (err: unknown) => {
        logger.warn({ err }, 'could not start the webhook dispatcher; retrying');
        setTimeout(startDispatcher, SWEEP_RETRY_MS).unref();
      },
    );
  };
  startDispatcher();

  const startStatsRefresh = () => {
    ensureMarketplaceStatsRefresh(deps.temporal, config.temporal.taskQueue).then(
      () => logger.info('marketplace stats refresh workflow running'),
      (err: unknown) => {
        logger.warn({ err }, 'could not start the marketplace stats refresh; retrying');
        setTimeout(startStatsRefresh, SWEEP_RETRY_MS).unref();
      },
    );
  };
  startStatsRefresh();

  const startHolderRewards = () => {
    ensureHolderRewardsSchedule(deps.temporal, config.temporal.taskQueue).then(
      () => logger.info('holder rewards schedule workflow running'),
      (err: unknown) => {
        logger.warn({ err }, 'could not start the holder rewards schedule; retrying');
        setTimeout(startHolderRewards, SWEEP_RETRY_MS).unref();
      },
    );
  };
  startHolderRewards();

  const startPaymentsReconcile = () => {
    ensurePaymentsReconcile(deps.temporal, config.temporal.taskQueue).then(
      () => logger.info('payments reconciler workflow running'),
      (err: unknown) => {
        logger.warn({ err }, 'could not start the payments reconciler; retrying');
        setTimeout(startPaymentsReconcile, SWEEP_RETRY_MS).unref();
      },
    );
  };
  startPaymentsReconcile();

  const startNotificationDelivery = () => {
    ensureNotificationDelivery(deps.temporal, config.temporal.taskQueue).then(
      () => logger.info('notification delivery workflow running'),
      (err: unknown) => {
        logger.warn({ err }, 'could not start the notification delivery; retrying');
        setTimeout(startNotificationDelivery, SWEEP_RETRY_MS).unref();
      },
    );
  };
  startNotificationDelivery();

  // One indexer per configured chain (docs/chain.md "Indexer").
  const startChainSync = (chainId: number) => {
    ensureChainSync(deps.temporal, config.temporal.taskQueue, chainSyncInput(config, chainId)).then(
      () => logger.info({ chainId }, 'chain indexer workflow running'),
      (err: unknown) => {
        logger.warn({ err, chainId }, 'could not start the chain indexer; retrying');
        setTimeout(() => startChainSync(chainId), SWEEP_RETRY_MS).unref();
      },
    );
  };
  for (const chainId of Object.keys(config.chainRpcUrls).map(Number)) startChainSync(chainId);

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
