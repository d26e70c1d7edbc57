import { randomBytes, randomUUID } from 'node:crypto';
import { appendProjectEvents, publishProjectEvents } from '../../shared/projects/event-log';
import { projectEventsChannel, type NewProjectEvent } from '../../shared/projects/events';
import type { TestContext } from './context';

/**
 * Projects inserted straight into a test database, and events for the project-stream tests.
 * Builds are simulated the way the workers write them: appendProjectEvents, then
 * publishProjectEvents (or, to lose a message on purpose, not).
 */

export interface TestProject {
  /** The context whose database holds the project. */
  world: TestContext;
  id: string;
  slug: string;
  runId: string;
  channel: string;
}

export interface TestProjectOptions {
  ownerId: number;
  private?: boolean;
  status?: string;
  runId?: string | null;
}

/** A project (on its own live token) straight in the database, running by default. */
export async function insertProject(
  world: TestContext,
  options: TestProjectOptions,
): Promise<TestProject> {
  const suffix = randomBytes(4).toString('hex');
  const [token] = await world.sql<{ id: string }>(
    `insert into tokens (id, owner_id, slug, name, ticker, template, chain_id, params, state, created_at)
     values (gen_random_uuid(), $1, $2, $3, $4, 'virtuals', 31337, '{}', 'live', now())
     returning id`,
    [options.ownerId, `token-${suffix}`, `Token ${suffix}`, suffix.slice(0, 6).toUpperCase()],
  );
  const runId = options.runId === undefined ? randomUUID() : options.runId;
  const slug = `project-${suffix}`;
  const [project] = await world.sql<{ id: string }>(
    `insert into projects (id, owner_id, token_id, slug, title, brief, agent_template, private,
                           status, current_run_id, created_at, updated_at)
     values (gen_random_uuid(), $1, $2, $3, 'A project', 'Build it', 'fullstack-builder', $4,
             $5, $6, now(), now())
     returning id`,
    [
      options.ownerId,
      token!.id,
      slug,
      options.private ?? false,
      options.status ?? 'running',
      runId,
    ],
  );
  const id = project!.id;
  const channel = projectEventsChannel(world.config.redisKeyPrefix, id);
  return { world, id, slug, runId: runId ?? '', channel };
}

export const message = (n: number): NewProjectEvent => ({
  key: `message-${n}`,
  type: 'message',
  data: { role: 'assistant', text: `step ${n}` },
});

export const done = (runId: string): NewProjectEvent => ({
  key: `done-${runId}`,
  type: 'done',
  data: { runId, finalStatus: 'completed' },
});

export const messages = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => message(from + i));

/** What a build step does: append to the log, then (unless lost on purpose) publish. */
export async function emit(
  project: TestProject,
  events: NewProjectEvent[],
  options: { publish?: boolean; runId?: string } = {},
): Promise<number[]> {
  const { deps } = project.world;
  const appended = await appendProjectEvents(
    deps.orm.em.fork(),
    project.id,
    options.runId ?? project.runId,
    events,
  );
  if (options.publish !== false) {
    await publishProjectEvents(deps.redis, project.channel, appended);
  }
  return appended.map((event) => event.seq);
}
