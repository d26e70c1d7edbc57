import type { MikroORM } from '@mikro-orm/postgresql';
import { ApplicationFailure, asyncLocalStorage } from '@temporalio/activity';
import { z } from 'zod';
import type { Config } from '../../shared/config';
import type { Logger } from '../../shared/logger';
import { createMatrixBot } from '../../shared/matrix/client';
import type { NotificationDeliveryOutcome } from '../../shared/temporal/workflows';
import { deliverNotification } from '../notifications/deliver';
import { dueNotifications, nextNotificationDueInMs } from '../notifications/due';

/** Well inside the workflow's 5 s heartbeat timeout, so a dead worker is noticed in seconds. */
const HEARTBEAT_EVERY_MS = 1000;

const deliverInput = z.object({ notificationId: z.uuid() });

/**
 * Milestone notification activities (workflows/notification-delivery.ts drives them): the due
 * rows, and one delivery through the bot. One bot (one pooled HTTP client) per worker process.
 * Without MATRIX_HOMESERVER_URL and MATRIX_ACCESS_TOKEN nothing is ever due: notifications stay
 * queued, and the worker says so once when it starts.
 */
export function createNotificationActivities(deps: {
  orm: MikroORM;
  config: Config;
  logger: Logger;
}) {
  const { homeserverUrl, accessToken } = deps.config.matrix;
  const configured = Boolean(homeserverUrl && accessToken);
  const bot = createMatrixBot({ homeserverUrl, accessToken });
  if (!configured) {
    deps.logger.warn(
      'notifications: no Matrix homeserver configured (MATRIX_HOMESERVER_URL, MATRIX_ACCESS_TOKEN); notifications stay queued',
    );
  }

  return {
    /** Ids of due notifications, oldest first (none while no homeserver is configured). */
    async dueNotifications(): Promise<string[]> {
      if (!configured) return [];
      return dueNotifications(deps.orm.em.fork());
    },

    /** Milliseconds until the next row waiting out a backoff is due; null when none is. */
    async nextNotificationDueInMs(): Promise<number | null> {
      if (!configured) return null;
      return nextNotificationDueInMs(deps.orm.em.fork());
    },

    /**
     * Delivers one notification (`deliverNotification`), heartbeating while the homeserver
     * takes its time. A Matrix failure is an outcome recorded on the row; only database
     * failures throw.
     */
    async deliverNotification(input: {
      notificationId: string;
    }): Promise<NotificationDeliveryOutcome> {
      const parsed = deliverInput.safeParse(input);
      if (!parsed.success) {
        throw ApplicationFailure.nonRetryable('invalid activity input', 'InvalidInput');
      }
      const { notificationId } = parsed.data;
      const context = asyncLocalStorage.getStore();
      context?.heartbeat();
      const beat = context ? setInterval(() => context.heartbeat(), HEARTBEAT_EVERY_MS) : null;
      try {
        const outcome = await deliverNotification({ orm: deps.orm, bot }, notificationId);
        if (outcome.status === 'failed') {
          deps.logger.warn(
            { notificationId, error: outcome.error, retryInMs: outcome.retryInMs },
            'notification delivery failed; retrying later',
          );
        }
        return outcome;
      } finally {
        if (beat) clearInterval(beat);
      }
    },
  };
}

export type NotificationActivities = ReturnType<typeof createNotificationActivities>;
