import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ApiDeps } from '../../deps';

/** Search over published agents and tokens (spec "Search", decisions §7). */
export const searchRoutes: FastifyPluginAsyncZod<{ deps: ApiDeps }> = async () => {};
