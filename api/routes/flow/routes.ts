import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ApiDeps } from '../../deps';

/** FLOW balance, ledger and internal credits (spec "FLOW", decisions §6). */
export const flowRoutes: FastifyPluginAsyncZod<{ deps: ApiDeps }> = async () => {};
