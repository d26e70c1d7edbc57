import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../access/actor';
import { RateLimiter } from '../../access/rate-limiter';
import type { ApiDeps } from '../../deps';
import { errors } from '../../openapi/errors';
import { agentFillBody, agentFillSchema, tokenFillBody, tokenFillSchema } from './schemas';
import { checkedKeep, fillAgentMetadata, fillTokenMetadata, type AiDeps } from './service';

const tags = ['ai'];

/** AI metadata fill (docs/spec/contract.md §15, docs/guides/ai-fill.md). */
export const aiRoutes: FastifyPluginAsyncZod<{ deps: ApiDeps }> = async (app, opts) => {
  const { config, db, redis, logger } = opts.deps;
  const deps: AiDeps = { config, db, limiter: new RateLimiter(redis), logger };
  const limits =
    `${config.aiFill.perMinute} requests a minute and ${config.aiFill.perDay} a day per user ` +
    '(429 with Retry-After).';
  const failures =
    'One repair turn when the answer breaks a rule, then 422 `ai_invalid_output`; a refusal ' +
    `is 422 \`ai_refused\`; a model that is busy, failing or slower than ${config.aiFill.timeoutMs / 1000} s ` +
    '(one deadline for the whole request) is 503 `ai_unavailable` with Retry-After, as is a ' +
    'deployment without LLM_BASE_URL.';

  app.post(
    '/ai/token-metadata',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Suggest a token’s name, ticker, description and tags from a brief',
        description:
          'The configured model writes `variants` suggestions; nothing is applied: send the ' +
          'one you like to POST /tokens. The brief is sent to the model as data, never as ' +
          'instructions. Suggestions are checked here: tickers follow the ticker rules and ' +
          'are not used by any token, no URL, domain or @handle anywhere, lengths within ' +
          `the limits. ${failures} ${limits}`,
        errors: errors(
          'invalid_ticker',
          'ticker_taken',
          'ai_invalid_output',
          'ai_refused',
          'ai_unavailable',
        ),
        tags,
        body: tokenFillBody,
        response: { 200: tokenFillSchema },
      },
    },
    async (request) => {
      const { brief, template, variants } = request.body;
      const keep = await checkedKeep(deps, request.body.keep);
      return fillTokenMetadata(deps, actorOf(request), {
        kind: 'token',
        brief,
        template,
        keep,
        variants,
        requestId: request.id,
      });
    },
  );

  app.post(
    '/ai/agent-metadata',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Suggest an agent’s name, description, tags and platform tools from a brief',
        description:
          'The configured model writes one suggestion; nothing is applied: send it to POST ' +
          '/agents or PATCH /agents/:slug. `tools` come only from the platform’s list (GET ' +
          `/marketplace/tools). The brief is sent to the model as data. ${failures} ${limits}`,
        errors: errors('ai_invalid_output', 'ai_refused', 'ai_unavailable'),
        tags,
        body: agentFillBody,
        response: { 200: agentFillSchema },
      },
    },
    async (request) =>
      fillAgentMetadata(deps, actorOf(request), {
        kind: 'agent',
        brief: request.body.brief,
        keep: { ...request.body.keep },
        variants: 1,
        requestId: request.id,
      }),
  );
};
