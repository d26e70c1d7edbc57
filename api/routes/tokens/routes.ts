import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ApiDeps } from '../../deps';

/** Tokens and chains (spec "Tokens", decisions §7). */
export const tokenRoutes: FastifyPluginAsyncZod<{ deps: ApiDeps }> = async () => {};
