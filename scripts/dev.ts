import { mkdirSync } from 'node:fs';
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
import {
  ensureSearchAttributesRegistered,
  logSearchAttributeRegistration,
} from '../shared/temporal/search-attribute-registration';
import { createLogger, flushLogger, type Logger } from '../shared/logger';
import { installWorkerLogging, startWorkers } from '../workers/worker';
import {
  startEmbeddedPostgres,
  startInProcessRedis,
  startTemporalDevServer,
} from './embedded-services';
import { chainAnswers, startLocalChain } from './anvil';
import { ANVIL_ACCOUNT_0_KEY, deployReferenceContracts } from './chain-deployment';
import { demoAgentRoutes, DEMO_AGENT_PATH, DEMO_AGENTS } from './demo-agent';
import { startDevMatrix, type DevMatrix } from './dev-matrix';
import {
  assertPortFree,
  DEV_POSTGRES_DEFAULT_PORT,
  DevError,
  loadDotEnv,
  portAnswers,
  removeDevServerRecord,
  writeDevServerRecord,
} from './dev-env';
import { startPaymentStandIns, type PaymentStandIns } from './payment-stand-ins';

/**
 * `npm run dev`: API + worker in one process, on the services named by DATABASE_URL,
 * REDIS_URL, TEMPORAL_ADDRESS and CHAIN_RPC_URLS, or on embedded stand-ins for those left
 * unset (without CHAIN_RPC_URLS: anvil on DEV_ANVIL_PORT, 8545, with the reference contracts).
 * It reads `.env` of the current directory first, if there is one (the environment wins).
 *
 * Everything it starts (the embedded database, the Temporal dev server, anvil, the payment
 * stand-ins, Synapse, the API and the workers) is registered in `Stops` the moment it is up,
 * and stopped, newest first, on every way out: Ctrl-C or SIGTERM (also during start-up), a
 * failure during start-up, workers that stop, an uncaught error. A failure the developer can
 * act on (a busy port, no Temporal) ends with its message alone on stderr, no stack trace.
 */

type Stop = () => Promise<void>;

/** What is running, stopped newest first; once stopping began, whatever is added is stopped. */
class Stops {
  private readonly running: { name: string; stop: Stop }[] = [];
  private stopping = false;

  constructor(private readonly logger: Logger) {}

  async add(name: string, stop: Stop): Promise<void> {
    this.running.push({ name, stop });
    if (this.stopping) await this.stopAll();
  }

  async stopAll(): Promise<void> {
    this.stopping = true;
    for (let next = this.running.pop(); next; next = this.running.pop()) {
      try {
        await next.stop();
        this.logger.debug({ stopped: next.name }, 'stopped');
      } catch (err) {
        this.logger.warn({ err, name: next.name }, 'could not stop');
      }
    }
  }
}

/** Start-up was interrupted by a signal: nothing to report. */
class Interrupted extends Error {}

/** The line a failure ends with: an actionable message alone, anything else with its stack. */
function describe(error: unknown, port: number | undefined): string {
  if (error instanceof DevError || (error as Error)?.name === 'ConfigError') {
    return (error as Error).message;
  }
  if ((error as NodeJS.ErrnoException)?.code === 'EADDRINUSE' && port !== undefined) {
    return `port ${port} is in use: set PORT to another port`;
  }
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

async function main(): Promise<void> {
  let dotEnv: string | null = null;
  try {
    dotEnv = loadDotEnv();
  } catch (error) {
    process.stderr.write(`${describe(error, undefined)}\n`);
    process.exit(1);
  }
  const env: Record<string, string | undefined> = { NODE_ENV: 'development', ...process.env };
  const logger = createLogger(env.LOG_LEVEL ?? 'info', 'dev');
  // Before any Temporal connection: the runtime (logger, metrics exporter) is installed once.
  // The address is checked by loadConfig below; the exporter refuses a malformed one anyway.
  installWorkerLogging(
    logger.child({ component: 'worker' }),
    env.WORKER_METRICS_ADDRESS || undefined,
  );
  if (dotEnv) logger.info({ file: dotEnv }, 'read .env (variables already set win)');

  const stops = new Stops(logger);
  let port: number | undefined;
  let startup: Promise<void> | null = null;
  let ending: Promise<void> | null = null;
  let interrupted = false;

  const end = (code: number, message?: string): Promise<void> => {
    ending ??= (async () => {
      interrupted = true;
      // A start-up under way finishes its current step first, so what it starts is stopped.
      await startup?.catch(() => undefined);
      await stops.stopAll();
      await flushLogger(logger);
      if (message) process.stderr.write(`${message}\n`);
      process.exit(code);
    })();
    return ending;
  };
  const checkpoint = () => {
    if (interrupted) throw new Interrupted('interrupted');
  };

  let firstSignalAt = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    if (firstSignalAt === 0) {
      firstSignalAt = Date.now();
      logger.info({ signal }, 'stopping');
      void end(0);
      return;
    }
    // One Ctrl-C often arrives twice (the terminal signals the whole process group, and npm
    // relays it too): only another one a moment later means "stop now, without cleaning up".
    if (Date.now() - firstSignalAt > 1000) process.exit(130);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('uncaughtException', (error) => {
    logger.fatal({ err: error }, 'uncaught exception');
    void end(1, describe(error, port));
  });
  process.on('unhandledRejection', (reason) => {
    logger.fatal({ err: reason }, 'unhandled rejection');
    void end(1, describe(reason, port));
  });

  startup = (async () => {
    // Every setting is checked before anything starts.
    const preliminary = loadConfig(env);
    port = preliminary.port;
    await assertPortFree(preliminary.host, preliminary.port, 'PORT');
    const dataDir = join(process.cwd(), '.data');
    // State of the stand-ins (the Temporal dev server's database needs its directory to exist).
    mkdirSync(dataDir, { recursive: true });

    if (!env.DATABASE_URL) {
      const postgresPort = Number(env.DEV_POSTGRES_PORT ?? DEV_POSTGRES_DEFAULT_PORT);
      await assertPortFree('127.0.0.1', postgresPort, 'DEV_POSTGRES_PORT');
      const postgresLog = logger.child({ component: 'postgres' });
      const pg = await startEmbeddedPostgres(join(dataDir, 'postgres'), postgresPort, (line) =>
        postgresLog.debug({ line }, 'postgres'),
      );
      await stops.add('embedded PostgreSQL', pg.stop);
      checkpoint();
      env.DATABASE_URL = pg.value;
      logger.info(
        { port: postgresPort },
        'DATABASE_URL not set: embedded PostgreSQL from the npm binaries (data in .data/postgres)',
      );
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
      logger.info('TEMPORAL_ADDRESS not set: starting a Temporal dev server');
      const temporalLog = logger.child({ component: 'temporal-dev-server' });
      const temporal = await startTemporalDevServer({
        cliPath: env.TEMPORAL_CLI_PATH,
        dbFile: join(dataDir, 'temporal.sqlite'),
        toolsDir: join(dataDir, 'tools'),
        // Its JSON log records become ours; its start-up banner (plain text) goes to debug.
        output: (line) => {
          if (typeof line === 'string') return temporalLog.debug({ line }, 'temporal');
          // Its own `time` and `level` would repeat pino's keys.
          const { level, msg, ...rest } = line;
          delete rest.time;
          const named = String(level).toLowerCase();
          const method =
            named === 'error' || named === 'warn' || named === 'info' ? named : 'debug';
          temporalLog[method](rest, typeof msg === 'string' ? msg : 'temporal');
        },
      });
      await stops.add('Temporal dev server', temporal.stop);
      checkpoint();
      env.TEMPORAL_ADDRESS = temporal.value.address;
      temporalUi = temporal.value.uiUrl;
      logger.info(
        { address: temporal.value.address },
        `TEMPORAL_ADDRESS not set: started ${temporal.value.source}`,
      );
    }

    if (!env.CHAIN_RPC_URLS) {
      const anvilPort = Number(env.DEV_ANVIL_PORT ?? 8545);
      const url = `http://127.0.0.1:${anvilPort}`;
      if (!(await chainAnswers(url)) && (await portAnswers(anvilPort))) {
        throw new DevError(
          `port ${anvilPort} is in use by something that is not an EVM node: set DEV_ANVIL_PORT ` +
            'to another port (or CHAIN_RPC_URLS to a chain of yours)',
        );
      }
      const chain = await startLocalChain({
        port: anvilPort,
        stateFile: join(dataDir, 'anvil-state.json'),
      }).catch((error: Error) => {
        throw new DevError(
          `the local chain could not be started: ${error.message} (CHAIN_RPC_URLS set to a chain of yours skips it)`,
        );
      });
      await stops.add('anvil', chain.stop);
      checkpoint();
      env.CHAIN_RPC_URLS = `31337=${chain.url}`;
      const deployed = await deployReferenceContracts(
        chain.url,
        privateKeyToAccount(ANVIL_ACCOUNT_0_KEY),
      );
      checkpoint();
      logger.info(
        { contracts: Object.fromEntries(deployed.map(({ name, address }) => [name, address])) },
        `CHAIN_RPC_URLS not set: chain 31337 is ${chain.source}, reference contracts in place`,
      );
    }

    // Test payments: loopback stand-ins of Crypto Pay and Platega (unless real ones are set).
    let paymentStandIns: PaymentStandIns | null = null;
    const realProviders = env.CRYPTOBOT_API_TOKEN || env.PLATEGA_MERCHANT_ID;
    if (env.DEV_PAYMENT_STAND_INS !== 'false' && !realProviders) {
      paymentStandIns = await startPaymentStandIns({
        callbackUrls: {
          cryptobot: `http://127.0.0.1:${preliminary.port}/payments/cryptobot/callback`,
          platega: `http://127.0.0.1:${preliminary.port}/payments/platega/callback`,
        },
      });
      const standIns = paymentStandIns;
      await stops.add('payment stand-ins', () => standIns.close());
      checkpoint();
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
      devMatrix = await startDevMatrix(dataDir, Number(env.DEV_SYNAPSE_PORT ?? 8008)).catch(
        (error: Error) => {
          // Its errors say what to do (SYNAPSE_PYTHON, python3 -m venv, the state to remove).
          throw new DevError(`DEV_MATRIX=true: Synapse could not be started: ${error.message}`);
        },
      );
      await stops.add('Synapse', devMatrix.stop);
      checkpoint();
      Object.assign(env, devMatrix.env);
      env.BOT_TOKENS ||= devMatrix.gatewayToken;
    }

    const config = loadConfig(env);
    const deps = await connectApiDeps(config, logger.child({ component: 'api' }), { redis });
    await stops.add('API connections', () => closeApiDeps(deps));
    checkpoint();
    const applied = await migrate(deps.orm, logger);
    if (applied.length > 0) logger.info({ applied }, 'migrations applied');
    checkpoint();

    const app = buildApp(deps);
    // The demo agents `npm run seed` publishes answer here (scripts/demo-agent.ts).
    await app.register(demoAgentRoutes, { apiKeyPepper: config.apiKeyPepper });
    await stops.add('API', () => app.close());
    await app.listen({ host: config.host, port: config.port });
    // Where it listens (PORT=0 picks a port): `npm run seed` and `reset` read it from here,
    // written as soon as /readyz can answer, so a script that waits for readiness finds it.
    const listening = (app.server.address() as { port: number }).port;
    writeDevServerRecord(dataDir, {
      pid: process.pid,
      port: listening,
      databaseUrl: config.databaseUrl ?? env.DATABASE_URL ?? '',
      chainRpcUrls: env.CHAIN_RPC_URLS ?? null,
    });
    await stops.add('dev-server record', async () => removeDevServerRecord(dataDir));
    checkpoint();

    // The workflows' search attributes: the dev server it started has them from its flags; a
    // server of TEMPORAL_ADDRESS gets those it lacks here, before any workflow names them.
    logSearchAttributeRegistration(logger, await ensureSearchAttributesRegistered(deps.temporal));
    checkpoint();
    const running = await startWorkers({
      config,
      redis: deps.redis,
      temporal: deps.temporal,
      logger: logger.child({ component: 'worker' }),
      orm: deps.orm,
    });
    // A failure is reported below as it happens; stopping only has to close.
    await stops.add('workers', () => running.stop().catch(() => undefined));
    running.done.catch((error: unknown) => {
      logger.error({ err: error }, 'the Temporal workers stopped');
      void end(1, `the Temporal workers stopped: ${(error as Error)?.message ?? error}`);
    });
    checkpoint();
    // Main, webhook and one worker per build lane (workers/worker.ts), as a worker process runs.
    logger.info(
      {
        taskQueues: running.taskQueues,
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
    checkpoint();

    const base = `http://localhost:${listening}`;
    const demoAgents = DEMO_AGENTS.map((agent) => agent.name).join(', ');
    await flushLogger(logger);
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
        `  Demo data    npm run seed: demo users with API keys, agents answered here (${base}${DEMO_AGENT_PATH}/{${demoAgents}}), a finished build,`,
        `               demo tokens launched and traded on the local chain over 6 h of block time`,
        `  Market       ${base}/tokens?sort=market_cap   ${base}/tokens/demo-virtuals/candles?resolution=15m&countback=40`,
        `               curl -N ${base}/tokens/stream   (docs/guides/charts.md)`,
        config.llm
          ? `  Model        ${config.llm.model} at ${config.llm.baseUrl}: plans builds, writes POST /ai/* suggestions`
          : '  Model        none: builds use the deterministic planners, POST /ai/* answers 503 (set LLM_BASE_URL)',
        config.media.store.kind === 's3'
          ? `  Media        bucket ${config.media.store.bucket}${config.media.store.endpoint ? ` at ${config.media.store.endpoint}` : ''}   (curl -H 'x-api-key: <key>' -F file=@logo.png ${base}/media)`
          : `  Media        files under ${config.media.store.dir}   (curl -H 'x-api-key: <key>' -F file=@logo.png ${base}/media)`,
        `  FLOW         curl -X POST -H 'x-api-key: <key>' ${base}/dev/faucet   (1000 test FLOW; -d '{"amountFlow":5000}' for more)`,
        '',
      ].join('\n'),
    );
  })();

  try {
    await startup;
  } catch (error) {
    if (error instanceof Interrupted) return;
    // The reason goes to stderr alone, after everything started is stopped.
    await end(1, describe(error, port));
  }
}

void main();
