import type { MikroORM } from '@mikro-orm/postgresql';
import type { Redis } from 'ioredis';
import type { Config } from '../../shared/config';
import type { Logger } from '../../shared/logger';
import type { NewProjectEvent, ProjectStreamEvent } from '../../shared/projects/events';
import { projectEventsChannel } from '../../shared/projects/events';
import { appendProjectEvents, publishProjectEvents } from '../../shared/projects/event-log';

export interface EmitterDeps {
  orm: MikroORM;
  redis: Redis;
  config: Config;
  logger: Logger;
}

/** The one way build steps emit events: appended to the log, then published. */
export type EmitEvents = (
  projectId: string,
  runId: string,
  events: NewProjectEvent[],
) => Promise<ProjectStreamEvent[]>;

export function createEventEmitter(deps: EmitterDeps): EmitEvents {
  return async (projectId, runId, events) => {
    // appendProjectEvents is idempotent by key: a retried step gets the stored events back and
    // republishes them, which SSE relays drop by `seq`.
    const stored = await appendProjectEvents(deps.orm.em.fork(), projectId, runId, events);
    await publishEvents(deps, projectId, stored);
    return stored;
  };
}

/**
 * Publishing is best effort: the events are already in the log, and an API instance that
 * misses a message notices the gap in `seq` and reads the log. So a Redis hiccup must not
 * fail (and repeat) a build step.
 */
export async function publishEvents(
  deps: Pick<EmitterDeps, 'redis' | 'config' | 'logger'>,
  projectId: string,
  events: ProjectStreamEvent[],
): Promise<void> {
  try {
    await publishProjectEvents(
      deps.redis,
      projectEventsChannel(deps.config.redisKeyPrefix, projectId),
      events,
    );
  } catch (err) {
    deps.logger.warn(
      { err: { message: (err as Error).message }, projectId },
      'publishing build events failed',
    );
  }
}
