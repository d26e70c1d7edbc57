import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ApiDeps } from '../../deps';

/** Webhook subscriptions and deliveries (spec "Webhooks", decisions §7). */
export const webhookRoutes: FastifyPluginAsyncZod<{ deps: ApiDeps }> = async () => {};
