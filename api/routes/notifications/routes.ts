import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../access/actor';
import type { ApiDeps } from '../../deps';
import { notificationPageSchema, notificationsQuery } from './schemas';
import { listNotifications, type NotificationDeps } from './service';

const tags = ['notifications'];

/** The caller's milestone notifications (docs/decisions.md "Milestone notifications"). */
export const notificationRoutes: FastifyPluginAsyncZod<{ deps: ApiDeps }> = async (app, opts) => {
  const deps: NotificationDeps = { db: opts.deps.db, cursors: app.cursors };
  app.get(
    '/me/notifications',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'The caller’s notifications, newest first, with their delivery state',
        description:
          'Milestone notifications (project builds started, completed, failed or canceled for ' +
          'subscribed projects, subscription reminders) as queued for the caller, newest ' +
          'first, keyset-paged. The bot delivers each to a direct room with the caller’s ' +
          'linked Matrix account; `sentAt` is when it did, null while the notification is ' +
          'queued. `matrixLinked: false` says why nothing arrives: without a linked account ' +
          '(`POST /auth/matrix`) notifications stay queued, and are delivered, oldest first, ' +
          'once one is linked.',
        tags,
        querystring: notificationsQuery,
        response: { 200: notificationPageSchema },
      },
    },
    async (request) => listNotifications(deps, actorOf(request), request.query),
  );
};
