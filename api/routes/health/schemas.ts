import { z } from 'zod';

/** Wire shapes of the liveness and readiness probes. */

export const liveSchema = z.object({ status: z.literal('ok') });

export const readySchema = z.object({
  status: z.literal('ready'),
  checks: z.object({
    postgres: z.literal('ok'),
    redis: z.literal('ok'),
    temporal: z.literal('ok'),
  }),
});
