import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { privateKeyToAccount } from 'viem/accounts';
import { buildApp } from '../api/app';
import { closeApiDeps, connectApiDeps } from '../api/deps';
import {
  DISPATCH_POLLS_PER_RUN,
  chainSyncInput,
  ensureChainSync,
  ensureHolderRewardsSchedule,
  ensureIdempotencySweep,
  ensureMarketplaceStatsRefresh,
  ensureNotificationDelivery,
  ensurePaymentsReconcile,
  ensureWebhookDispatcher,
} from '../api/maintenance';
import { loadConfig } from '../shared/config';
import { migrate } from '../shared/db/orm';
import { createLogger } from '../shared/logger';
import {
  createWorkers,
  installWorkerLogging,
  NativeConnection,
  runWorkers,
} from '../workers/worker';
import {
  startEmbeddedPostgres,
  startInProcessRedis,
  startTemporalDevServer,
  type Running,
} from './embedded-services';
import { startLocalChain } from './anvil';
import { startDevMatrix, type DevMatrix } from './dev-matrix';
import { startPaymentStandIns, type PaymentStandIns } from './payment-stand-ins';
import { ANVIL_ACCOUNT_0_KEY, deployReferenceContracts } from './chain-deployment';

/**
 * `npm run dev`: API + worker in one process, on the services named by DATABASE_URL,
 * REDIS_URL, TEMPORAL_ADDRESS and CHAIN_RPC_URLS, or on embedded stand-ins for those left
 * unset (without CHAIN_RPC_URLS: anvil on DEV_ANVIL_PORT, 8545, with the reference contracts).
 */
async function main(): Promise<void> {
  const env: Record<string, string | undefined> = { NODE_ENV: 'development', ...process.env };
  const logger = createLogger(env.LOG_LEVEL ?? 'info', 'dev');
  installWorkerLogging(logger.child({ component: 'worker' }));
  const dataDir = join(process.cwd(), '.data');
  const stops: Running<unknown>['stop'][] = [];

  const embeddedDatabase = !env.DATABASE_URL;
  if (embeddedDatabase) {
    const port = Number(env.DEV_PGLITE_PORT ?? 54329);
    const pg = await startEmbeddedPostgres(join(dataDir, 'pglite'), port);
    stops.push(pg.stop);
    env.DATABASE_URL = pg.value;
    env.DATABASE_POOL_MAX ??= '4';
    logger.info({ port }, 'DATABASE_URL not set: embedded PGlite (data in .data/pglite)');
  }

  let redis: Redis | undefined;
  if (!env.REDIS_URL) {
    redis = startInProcessRedis();
    logger.warn(
      '!!! REDIS_URL not set: using an IN-PROCESS Redis stand-in. It is SINGLE-INSTANCE ONLY: ' +
        'rate limits, nonces and SSE fan-out are not shared with any other process. ' +
        'Set REDIS_URL for anything beyond local development. !!!',
    );
  }

  let temporalUi = env.TEMPORAL_UI_URL ?? '(your Temporal server UI)';
  if (!env.TEMPORAL_ADDRESS) {
    const temporal = await startTemporalDevServer({
      cliPath: env.TEMPORAL_CLI_PATH,
      dbFile: join(dataDir, 'temporal.sqlite'),
    });
    stops.push(temporal.stop);
    env.TEMPORAL_ADDRESS = temporal.value.address;
    temporalUi = temporal.value.uiUrl;
    logger.info(`TEMPORAL_ADDRESS not set: started ${temporal.value.source}`);
  }

  if (!env.CHAIN_RPC_URLS) {
    const chain = await startLocalChain({
      port: Number(env.DEV_ANVIL_PORT ?? 8545),
      stateFile: join(dataDir, 'anvil-state.json'),
    });
    stops.push(chain.stop);
    env.CHAIN_RPC_URLS = `31337=${chain.url}`;
    const deployed = await deployReferenceContracts(
      chain.url,
      privateKeyToAccount(ANVIL_ACCOUNT_0_KEY),
    );
    logger.info(
      { contracts: Object.fromEntries(deployed.map(({ name, address }) => [name, address])) },
      `CHAIN_RPC_URLS not set: chain 31337 is ${chain.source}, reference contracts in place`,
    );
  }

  // Test payments: loopback stand-ins of Crypto Pay and Platega (unless real ones are set).
  let paymentStandIns: PaymentStandIns | null = null;
  const realProviders = env.CRYPTOBOT_API_TOKEN || env.PLATEGA_MERCHANT_ID;
  if (env.DEV_PAYMENT_STAND_INS !== 'false' && !realProviders) {
    const port = env.PORT ?? '3000';
    paymentStandIns = await startPaymentStandIns({
      callbackUrls: {
        cryptobot: `http://127.0.0.1:${port}/payments/cryptobot/callback`,
        platega: `http://127.0.0.1:${port}/payments/platega/callback`,
      },
    });
    const standIns = paymentStandIns;
    stops.push(() => standIns.close());
    Object.assign(env, paymentStandIns.env);
    logger.info(
      { cryptobot: paymentStandIns.cryptobot.url, platega: paymentStandIns.platega.url },
      'payment providers not set: loopback stand-ins of Crypto Pay and Platega (DEV_PAYMENT_STAND_INS=false turns them off)',
    );
  }

  // A Matrix homeserver for the bot gateway, Matrix login and notifications: opt-in, since
  // Synapse needs Python (docs/bot-gateway.md "Running a homeserver in development").
  let devMatrix: DevMatrix | null = null;
  if (env.DEV_MATRIX === 'true' && !env.MATRIX_HOMESERVER_URL) {
    logger.info('DEV_MATRIX=true: starting Synapse (the first start installs it, ~30 s)');
    devMatrix = await startDevMatrix(dataDir, Number(env.DEV_SYNAPSE_PORT ?? 8008));
    stops.push(devMatrix.stop);
    Object.assign(env, devMatrix.env);
    env.BOT_TOKENS ||= devMatrix.gatewayToken;
  }

  const config = loadConfig(env);
  const deps = await connectApiDeps(config, logger.child({ component: 'api' }), {
    redis,
    // PGlite serves every socket connection from one session: named statements would collide.
    namedStatements: !embeddedDatabase,
  });
  const applied = await migrate(deps.orm);
  if (applied.length > 0) logger.info({ applied }, 'migrations applied');

  const app = buildApp(deps);
  await app.listen({ host: config.host, port: config.port });

  const connection = await NativeConnection.connect({ address: config.temporal.address });
  const workers = await createWorkers({
    config,
    redis: deps.redis,
    temporal: deps.temporal,
    logger: logger.child({ component: 'worker' }),
    connection,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    orm: deps.orm,
  });
  const running = runWorkers(workers);
  // Main, webhook and one worker per build lane (workers/worker.ts), as a worker process runs.
  logger.info(
    {
      taskQueues: workers.map((worker) => worker.options.taskQueue),
      buildConcurrency: config.buildConcurrency,
    },
    'workers started',
  );
  await ensureIdempotencySweep(deps.temporal, config.temporal.taskQueue);
  await ensureMarketplaceStatsRefresh(deps.temporal, config.temporal.taskQueue);
  await ensureHolderRewardsSchedule(deps.temporal, config.temporal.taskQueue);
  await ensurePaymentsReconcile(deps.temporal, config.temporal.taskQueue);
  await ensureNotificationDelivery(deps.temporal, config.temporal.taskQueue);
  await ensureWebhookDispatcher(deps.temporal, config.temporal.taskQueue, {
    pollIntervalMs: config.webhookDispatchIntervalMs,
    pollsPerRun: DISPATCH_POLLS_PER_RUN,
  });
  for (const chainId of Object.keys(config.chainRpcUrls).map(Number)) {
    await ensureChainSync(
      deps.temporal,
      config.temporal.taskQueue,
      chainSyncInput(config, chainId),
    );
  }

  const base = `http://localhost:${config.port}`;
  console.log(
    [
      '',
      `  API          ${base}`,
      `  Docs         ${base}/docs   (OpenAPI: ${base}/openapi.json)`,
      `  Readiness    ${base}/readyz`,
      `  Temporal UI  ${temporalUi}`,
      ...(paymentStandIns
        ? [
            `  Payments     cryptobot and platega are loopback stand-ins: open a checkoutUrl and press Pay`,
          ]
        : []),
      devMatrix
        ? `  Matrix       Synapse at ${devMatrix.url}, bot ${devMatrix.botUserId}; X-Service-Bot-Token: ${config.botTokens[0]}`
        : config.matrix.homeserverUrl
          ? `  Matrix       ${config.matrix.homeserverUrl}`
          : '  Matrix       none: /api/v1 answers 502 send_failed, notifications stay queued (DEV_MATRIX=true starts Synapse)',
      ...(config.payments.usdtBep20
        ? [
            `               usdt_bep20: send the exact amount of the checkoutUrl (chain ${config.payments.usdtBep20.chainId}) to ${config.payments.usdtBep20.treasury}`,
          ]
        : []),
      '',
    ].join('\n'),
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping');
    running.shutdown();
    await running.done;
    await connection.close();
    await app.close();
    await closeApiDeps(deps);
    for (const stopService of stops.reverse()) await stopService();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
});
