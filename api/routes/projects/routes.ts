import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ApiDeps } from '../../deps';

/** Projects (spec "Projects", decisions §7). */
export const projectRoutes: FastifyPluginAsyncZod<{ deps: ApiDeps }> = async () => {};
