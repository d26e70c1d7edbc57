import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ApiDeps } from '../../deps';

/**
 * Registers nothing: the chain-index reads of a token (holders, trades, on-chain aggregate)
 * are in `routes.ts` with every other token route. Kept only while api/app.ts still registers
 * it; delete this file with that line.
 */
export const tokenChainRoutes: FastifyPluginAsyncZod<{ deps: ApiDeps }> = async () => {};
