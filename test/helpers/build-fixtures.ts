import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { WorkflowHandle } from '@temporalio/client';
import type { AgentTemplate } from '../../shared/db/entities/project';
import { mainTaskQueue, workflowIds, workflowTypes } from '../../shared/temporal';
import { createProjectActivities } from '../../workers/activities/projects';
import { insertQueuedBuild, type QueuedBuild } from '../../scripts/queued-build';
import type { TestContext } from './context';

/** A queued build (scripts/queued-build.ts) plus a user subscribed to the project. */
export interface BuildFixture extends QueuedBuild {
  subscriberId: number;
}

/** The union of the fields of every event type, for assertions. */
export interface EventData {
  steps?: string[];
  revision?: number;
  role?: string;
  text?: string;
  tool?: string;
  args?: { path?: string; content?: string; command?: string; args?: string[]; message?: string };
  callId?: string;
  result?: {
    exitCode?: number | null;
    stdout?: string;
    stderr?: string;
    sha?: string;
    files?: string[];
  } | null;
  error?: string;
  sha?: string;
  message?: string;
  files?: string[];
  recoverable?: boolean;
  runId?: string;
  finalStatus?: string;
  approvalId?: string;
  decision?: string;
  by?: string;
}

export interface StoredEvent {
  seq: number;
  type: string;
  data: EventData;
  key: string;
  runId: string;
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
// Tickers are unique per chain; a counter (one database per test file) never collides,
// where two random bytes would about once in 2,000 runs.
/** Inserts an owner, a token, a queued project and its queued run, and a subscriber. */
export async function insertBuildFixture(
  ctx: TestContext,
  options: { template?: AgentTemplate; title?: string; brief?: string } = {},
): Promise<BuildFixture> {
  const build = await insertQueuedBuild((text, params) => ctx.sql(text, params), options);
  const [subscriber] = await ctx.sql<{ id: number }>(
    'insert into users (address, created_at) values ($1, now()) returning id',
    [`0x${hex(20)}`],
  );
  await ctx.sql(
    'insert into project_subscriptions (project_id, user_id, created_at) values ($1, $2, now())',
    [build.projectId, subscriber!.id],
  );
  return { ...build, subscriberId: subscriber!.id };
}

/** Starts the build workflow the way the API does. */
export async function startBuild(
  ctx: TestContext,
  fixture: BuildFixture,
  paceMs = 0,
): Promise<WorkflowHandle> {
  return ctx.deps.temporal.workflow.start(workflowTypes.projectBuild, {
    workflowId: workflowIds.projectBuild(fixture.projectId, fixture.runId),
    taskQueue: mainTaskQueue(ctx.config.temporal.taskQueue),
    args: [{ projectId: fixture.projectId, runId: fixture.runId, paceMs }],
  });
}

/** Every stored event of the project, oldest first. */
export async function projectEvents(ctx: TestContext, projectId: string): Promise<StoredEvent[]> {
  const rows = await ctx.sql<{
    seq: string;
    type: string;
    data: any;
    event_key: string;
    run_id: string;
  }>(
    'select seq, type, data, event_key, run_id from project_events where project_id = $1 order by seq',
    [projectId],
  );
  return rows.map((row) => ({
    seq: Number(row.seq),
    type: row.type,
    data: row.data,
    key: row.event_key,
    runId: row.run_id,
  }));
}

export function workspaceOf(ctx: TestContext, fixture: BuildFixture): string {
  return resolve(ctx.config.build.workspaceRoot, fixture.projectId, fixture.runId);
}

/** Commit SHAs of the workspace, oldest first, read with the plain git CLI ([] before any). */
export function gitLog(workspace: string): string[] {
  try {
    execFileSync('git', ['-C', workspace, 'rev-parse', '--verify', '-q', 'HEAD'], {
      stdio: 'ignore',
    });
  } catch {
    return [];
  }
  const out = execFileSync('git', ['-C', workspace, 'log', '--reverse', '--format=%H'], {
    encoding: 'utf8',
  });
  return out.split('\n').filter((line) => line.length > 0);
}

/** File names inside a gzipped tarball (gunzip first, proving it is gzip). */
export function tarballFiles(artifact: Buffer): string[] {
  const tar = gunzipSync(artifact);
  const out = execFileSync('tar', ['-tf', '-'], { input: tar, encoding: 'utf8' });
  return out.split('\n').filter((line) => line.length > 0 && !line.endsWith('/'));
}

export async function waitFor(
  check: () => Promise<boolean>,
  timeoutMs: number,
  what = 'condition',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Waits until the project's log holds an event of `type` (e.g. the build's first commit). */
export async function waitForProjectEvent(
  ctx: TestContext,
  projectId: string,
  type: string,
  timeoutMs = 20_000,
): Promise<void> {
  await waitFor(
    async () => (await projectEvents(ctx, projectId)).some((event) => event.type === type),
    timeoutMs,
    `a ${type} event`,
  );
}

/** Event seqs run 1, 2, 3… with no gap. */
export function expectContiguous(events: StoredEvent[]): void {
  expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
}

/** The run row as the finish step left it. */
export async function runRow(ctx: TestContext, runId: string) {
  const [run] = await ctx.sql<{
    status: string;
    planner: string;
    reason: string | null;
    head_sha: string | null;
    artifact: Buffer | null;
    artifact_bytes: number | null;
    started_at: Date | null;
    finished_at: Date | null;
  }>(
    'select status, planner, reason, head_sha, artifact, artifact_bytes, started_at, finished_at from project_runs where id = $1',
    [runId],
  );
  return run;
}

export async function projectStatus(ctx: TestContext, projectId: string): Promise<string> {
  const [row] = await ctx.sql<{ status: string }>('select status from projects where id = $1', [
    projectId,
  ]);
  return row!.status;
}

/** Webhook outbox rows caused by a run (dedupe keys end in the run id). */
export async function outboxOf(ctx: TestContext, runId: string) {
  return ctx.sql(
    'select user_id, event, data, dedupe_key from outbox_events where dedupe_key like $1',
    [`%:${runId}`],
  );
}

/** Kinds of the notifications queued for the fixture's subscriber, oldest first. */
export async function notificationKinds(
  ctx: TestContext,
  fixture: BuildFixture,
): Promise<string[]> {
  const rows = await ctx.sql<{ kind: string }>(
    'select kind from notifications where user_id = $1 order by created_at, kind',
    [fixture.subscriberId],
  );
  return rows.map((row) => row.kind);
}

/** The build activities on this test context's services, to call one step at a time. */
export function projectActivitiesFor(ctx: TestContext) {
  return createProjectActivities({
    orm: ctx.deps.orm,
    config: ctx.config,
    redis: ctx.deps.redis,
    logger: ctx.logger,
  });
}
