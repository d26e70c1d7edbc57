import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ApiDeps } from '../../deps';

/** Paid agent invocation and agent subscriptions (decisions §6). */
export const invokeRoutes: FastifyPluginAsyncZod<{ deps: ApiDeps }> = async () => {};
