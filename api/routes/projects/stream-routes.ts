import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ApiDeps } from '../../deps';

/** The project stream over SSE (spec "Project stream (SSE)", decisions §7). */
export const projectStreamRoutes: FastifyPluginAsyncZod<{ deps: ApiDeps }> = async () => {};
