import { z } from 'zod';

/** Wire shape of `GET /` as JSON. */

export const homeSchema = z
  .object({
    name: z.string(),
    version: z.string(),
    docs: z.string().describe('The interactive API reference'),
    openapi: z.string().describe('The OpenAPI 3.1 document'),
    health: z.string(),
    readiness: z.string(),
    guides: z
      .array(z.object({ path: z.string(), about: z.string() }))
      .describe('Guides in the service’s repository'),
    faucet: z
      .string()
      .optional()
      .describe('Outside production: how to get test FLOW (POST, signed in)'),
  })
  .meta({ id: 'Home' });

export type Home = z.infer<typeof homeSchema>;
