import { z } from 'zod';
import { cursorQuery, pageLimit } from '../../paging/page';
import { isoTime } from '../../wire';

/** Wire shapes of the caller's milestone notifications (docs/decisions.md "Milestone notifications"). */

export const DEFAULT_NOTIFICATION_PAGE = 50;

export const notificationsQuery = z.object({
  cursor: cursorQuery,
  /** Like every list's `limit` (docs/spec/contract.md §1), with a larger default. */
  limit: pageLimit(DEFAULT_NOTIFICATION_PAGE),
});

const EXAMPLE_NOTIFICATION = {
  id: '0b5e2c1a-6f1d-4a8e-9a57-3c2d1e0f4b6a',
  kind: 'project.completed',
  text: 'Build of "Atlas" completed: https://api.example.org/projects/atlas/runs/5d1c…/artifact',
  data: {
    slug: 'atlas',
    runId: '5d1c3f0e-2b7a-4c9d-8e6f-1a2b3c4d5e6f',
    artifactUrl: 'https://api.example.org/projects/atlas/runs/5d1c…/artifact',
  },
  createdAt: '2026-12-01T10:15:30.120Z',
  sentAt: '2026-12-01T10:15:31.904Z',
};

export const notificationSchema = z
  .object({
    id: z.uuid(),
    kind: z
      .string()
      .describe('What happened: project.started, project.completed, project.failed, …'),
    text: z.string().describe('The message as the bot sends it'),
    data: z.record(z.string(), z.unknown()).describe('The facts behind the text, per kind'),
    createdAt: isoTime.describe('When it was queued'),
    sentAt: isoTime
      .nullable()
      .describe('When the bot delivered it to the linked Matrix account; null while queued'),
  })
  .meta({ id: 'Notification', examples: [EXAMPLE_NOTIFICATION] });

export const notificationPageSchema = z
  .object({
    items: z.array(notificationSchema),
    nextCursor: z.string().nullable().describe('Opaque; null on the last page'),
    matrixLinked: z
      .boolean()
      .describe(
        'Whether the caller has a linked Matrix account (`POST /auth/matrix`); without one, ' +
          'notifications stay queued (`sentAt` null) until an account is linked',
      ),
  })
  .meta({
    id: 'NotificationPage',
    examples: [
      {
        items: [
          EXAMPLE_NOTIFICATION,
          {
            id: '7c9a4e2b-1d3f-4b5a-8c6d-9e0f1a2b3c4d',
            kind: 'project.started',
            text: 'Build of "Atlas" started.',
            data: { slug: 'atlas', runId: '5d1c3f0e-2b7a-4c9d-8e6f-1a2b3c4d5e6f' },
            createdAt: '2026-12-01T10:12:02.417Z',
            sentAt: '2026-12-01T10:12:03.551Z',
          },
        ],
        nextCursor: null,
        matrixLinked: true,
      },
    ],
  });
