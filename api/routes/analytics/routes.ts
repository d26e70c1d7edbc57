import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../access/actor';
import type { ApiDeps } from '../../deps';
import {
  ADVANCED_MAX_DAYS,
  analyticsQuery,
  analyticsSchema,
  BASIC_MAX_DAYS,
  LATENCY_MAX_DAYS,
  LATENCY_MAX_SAMPLES,
} from './schemas';
import { myAnalytics, type AnalyticsDeps } from './service';
import { errors } from '../../openapi/errors';

const DESCRIPTION =
  'Basic analytics (plus): for the last `days` UTC days (today included, at most ' +
  `${BASIC_MAX_DAYS}), daily succeeded calls and gross FLOW earned of every agent the caller ` +
  'owns, and daily requests, errors and FLOW spent of every API key of the caller, with ' +
  'totals and an account-wide series that has every day. Advanced analytics (pro, max): ' +
  `\`days\` up to ${ADVANCED_MAX_DAYS}, plus the API key requests by model and by endpoint, ` +
  'and p50/p95 latency per agent and per key over the window’s last ' +
  `${LATENCY_MAX_DAYS} days (the newest ${LATENCY_MAX_SAMPLES} calls or requests of each at ` +
  'most). Without a tier, or asking a plus tier for more than ' +
  `${BASIC_MAX_DAYS} days: 403 feature_not_in_tier. Figures come from read models kept exact ` +
  'by every write; requests made with an API key on another API instance show within the ' +
  'usage log’s flush interval.';

/** The caller's analytics (docs/spec/contract.md §11 entitlements). A session or an API key. */
export const analyticsRoutes: FastifyPluginAsyncZod<{ deps: ApiDeps }> = async (app, opts) => {
  const deps: AnalyticsDeps = { db: opts.deps.db, usage: app.usage };

  app.get(
    '/me/analytics',
    {
      config: { auth: 'user' },
      schema: {
        summary:
          'Usage and earnings analytics of the caller’s agents and API keys (plus, pro, max)',
        description: DESCRIPTION,
        errors: errors('feature_not_in_tier'),
        tags: ['analytics'],
        querystring: analyticsQuery,
        response: { 200: analyticsSchema },
      },
    },
    async (request) => myAnalytics(deps, actorOf(request), request.query),
  );
};
