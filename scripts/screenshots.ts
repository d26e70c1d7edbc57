import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client as PgClient } from 'pg';
import { buildApp } from '../api/app';
import { closeApiDeps, connectApiDeps } from '../api/deps';
import { loadConfig } from '../shared/config';
import { migrate } from '../shared/db/orm';
import { createLogger } from '../shared/logger';
import { mainTaskQueue, workflowIds, workflowTypes } from '../shared/temporal';
import { ensureSearchAttributes, searchAttributes } from '../shared/temporal/search-attributes';
import { startWorkers } from '../workers/worker';
import { launchChromium } from './chromium';
import { signIn } from '../test/helpers/auth';
import { insertQueuedBuild } from './queued-build';
import { deleteKeysWithPrefix } from './redis-keys';

/**
 * `npx tsx scripts/screenshots.ts`: the screenshots in docs/screenshots/, taken in headless
 * Chromium (scripts/chromium.ts; `CHROMIUM_PATH` to use another):
 *
 * - build-page.png: the live build page (`GET /p/:slug`) of a real build, once it is done;
 * - build-page-approval.png: the page of a build waiting for its owner's approval, as the
 *   owner sees it (Approve and Reject); the owner then approves from the page;
 * - docs.png: the API reference at `/docs`, as the API serves it now.
 *
 * It runs the API and a worker in this process on the services the tests use (`DATABASE_URL`,
 * `REDIS_URL`, `TEMPORAL_ADDRESS`, with the tests' defaults), in a database, Redis key prefix,
 * task queue and workspace directory of its own, all removed at the end.
 */

const ROOT = resolve(__dirname, '..');
const OUT = join(ROOT, 'docs', 'screenshots');
const PACE_MS = 50;
const VIEWPORT = { width: 1280, height: 860 };

async function main(): Promise<void> {
  const adminUrl =
    process.env.DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const temporalAddress = process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233';
  const id = randomBytes(4).toString('hex');
  const database = `svc_screenshots_${id}`;
  const databaseUrl = new URL(adminUrl);
  databaseUrl.pathname = `/${database}`;
  const workspaceRoot = join(tmpdir(), `svc-screenshots-${id}`);
  const cleanups: (() => Promise<unknown>)[] = [];

  const admin = new PgClient({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database "${database}"`);
  await admin.end();
  cleanups.unshift(async () => {
    const dropper = new PgClient({ connectionString: adminUrl });
    await dropper.connect();
    await dropper.query(`drop database if exists "${database}" with (force)`);
    await dropper.end();
  });

  try {
    const config = loadConfig({
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      DATABASE_URL: databaseUrl.toString(),
      REDIS_URL: redisUrl,
      REDIS_KEY_PREFIX: `screenshots:${id}:`,
      TEMPORAL_ADDRESS: temporalAddress,
      TEMPORAL_TASK_QUEUE: `screenshots-${id}`,
      BUILD_WORKSPACE_ROOT: workspaceRoot,
    });
    const logger = createLogger(config.logLevel, 'screenshots');
    const deps = await connectApiDeps(config, logger);
    cleanups.unshift(() => closeApiDeps(deps));
    cleanups.unshift(() => rm(workspaceRoot, { recursive: true, force: true }));
    cleanups.unshift(() => deleteKeysWithPrefix(redisUrl, config.redisKeyPrefix));
    await migrate(deps.orm);

    const app = buildApp(deps);
    cleanups.unshift(() => app.close());
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

    console.log('bundling the workflows and starting a worker…');
    const running = await startWorkers({
      config,
      redis: deps.redis,
      temporal: deps.temporal,
      logger,
      orm: deps.orm,
    });
    cleanups.unshift(() => running.stop());

    const project = await insertProject(databaseUrl.toString());
    // The start names its search attributes, which the server must know.
    await ensureSearchAttributes(deps.temporal.connection, config.temporal.namespace);
    await deps.temporal.workflow.start(workflowTypes.projectBuild, {
      workflowId: workflowIds.projectBuild(project.projectId, project.runId),
      taskQueue: mainTaskQueue(config.temporal.taskQueue),
      args: [{ projectId: project.projectId, runId: project.runId, paceMs: PACE_MS }],
      typedSearchAttributes: searchAttributes({
        userId: project.ownerId,
        projectId: project.projectId,
      }),
    });

    const browser = await launchChromium();
    cleanups.unshift(() => browser.close());
    const page = await browser.newPage({ viewport: VIEWPORT });
    await mkdir(OUT, { recursive: true });

    console.log(`building ${base}/p/${project.slug} …`);
    await page.goto(`${base}/p/${project.slug}`);
    await page.waitForSelector('#final-status[data-final-status="completed"]', {
      timeout: 120_000,
    });
    await page.screenshot({ path: join(OUT, 'build-page.png'), fullPage: true });
    console.log('wrote docs/screenshots/build-page.png');

    await approvalScreenshot({
      app,
      browser,
      base,
      databaseUrl: databaseUrl.toString(),
      config,
      deps,
    });

    await page.goto(`${base}/docs`, { waitUntil: 'networkidle' });
    // Whatever the renderer draws after its scripts ran.
    await page.waitForTimeout(1000);
    await page.screenshot({ path: join(OUT, 'docs.png') });
    console.log('wrote docs/screenshots/docs.png');
  } finally {
    for (const cleanup of cleanups) {
      await cleanup().catch((err: unknown) => console.error('cleanup failed:', err));
    }
  }
}

/**
 * A build whose sandboxed command asks its owner first: the owner (signed in with SIWE, the
 * session cookie in the browser) sees the request with its buttons; the screenshot is taken
 * then, and the owner approves from the page.
 */
async function approvalScreenshot(world: {
  app: ReturnType<typeof buildApp>;
  browser: Awaited<ReturnType<typeof launchChromium>>;
  base: string;
  databaseUrl: string;
  config: ReturnType<typeof loadConfig>;
  deps: Awaited<ReturnType<typeof connectApiDeps>>;
}): Promise<void> {
  const { app, browser, base, config, deps } = world;
  const owner = await signIn(app);
  const project = await insertProject(world.databaseUrl, {
    slug: 'research-notes',
    title: 'Research notes',
    brief: 'Notes on bonding curves for the token’s holders, checked by a script.',
  });
  const pg = new PgClient({ connectionString: world.databaseUrl });
  await pg.connect();
  try {
    await pg.query('update projects set owner_id = $1 where id = $2', [
      owner.userId,
      project.projectId,
    ]);
    await pg.query(
      `insert into project_approval_policies (project_id, mode, rules, plan_approval,
         timeout_seconds, on_timeout, updated_by, updated_at)
       values ($1, 'ask_risky', '[{"tool": "run_command", "action": "ask"}]', false, 86400,
               'reject', $2, now())`,
      [project.projectId, owner.userId],
    );
  } finally {
    await pg.end();
  }
  const context = await browser.newContext({ viewport: VIEWPORT });
  try {
    await context.addCookies([
      {
        name: 'svc_session',
        value: owner.token,
        url: base,
        httpOnly: true,
        secure: true,
        sameSite: 'Lax',
      },
    ]);
    const page = await context.newPage();
    await page.goto(`${base}/p/${project.slug}`);
    await deps.temporal.workflow.start(workflowTypes.projectBuild, {
      workflowId: workflowIds.projectBuild(project.projectId, project.runId),
      taskQueue: mainTaskQueue(config.temporal.taskQueue),
      args: [{ projectId: project.projectId, runId: project.runId, paceMs: PACE_MS }],
      typedSearchAttributes: searchAttributes({
        userId: owner.userId,
        projectId: project.projectId,
      }),
    });
    const button = '#approvals li[data-approval-status="pending"] button.approve';
    await page.waitForSelector(button, { timeout: 120_000 });
    await page.screenshot({ path: join(OUT, 'build-page-approval.png'), fullPage: true });
    console.log('wrote docs/screenshots/build-page-approval.png');
    await page.click(button);
    await page.waitForSelector('#final-status[data-final-status="completed"]', {
      timeout: 120_000,
    });
  } finally {
    await context.close();
  }
}

/** A user, a token, and a project with its queued run, as the API leaves them at start. */
async function insertProject(
  databaseUrl: string,
  project = {
    slug: 'holder-dashboard',
    title: 'Holder dashboard',
    brief:
      "A small web app for the token's holders: the token's story, its roadmap, and a check that it is up.",
  },
) {
  const pg = new PgClient({ connectionString: databaseUrl });
  await pg.connect();
  try {
    return await insertQueuedBuild(
      async <Row extends Record<string, unknown>>(text: string, params: unknown[]) =>
        (await pg.query<Row>(text, params)).rows,
      project,
    );
  } finally {
    await pg.end();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
