import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ApiDeps } from '../../deps';

/** Agents and the marketplace (spec "Marketplace", decisions §6, §8). */
export const marketplaceRoutes: FastifyPluginAsyncZod<{ deps: ApiDeps }> = async () => {};
