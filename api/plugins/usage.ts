import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { ApiDeps } from '../deps';
import { UsageRecorder } from '../access/usage-recorder';

/**
 * Records every request made with an API key (route pattern, status, latency, FLOW charged,
 * and the model when a handler reports one) after its response is sent, through the
 * batching `UsageRecorder`. The recorder is flushed when the app closes.
 */

export interface UsageReport {
  model: string;
  inputTokens?: number;
  outputTokens?: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    usage: UsageRecorder;
  }
  interface FastifyRequest {
    /** Set by handlers whose work used a model (agent calls), for `by_model` usage. */
    usageReport: UsageReport | null;
  }
}

async function usagePlugin(app: FastifyInstance, opts: { deps: ApiDeps }): Promise<void> {
  const recorder = new UsageRecorder(opts.deps.orm, opts.deps.logger);
  app.decorate('usage', recorder);
  app.decorateRequest('usageReport', null);

  // Callback style: requests without a key pass with no promise.
  app.addHook('onResponse', (request, reply, done) => {
    const key = request.actor?.apiKey;
    if (!key) return done();
    recorder.record({
      apiKeyId: key.id,
      method: request.method,
      route: request.routeOptions.url ?? '(unmatched)',
      status: reply.statusCode,
      latencyMs: reply.elapsedTime,
      flowCost: request.flowCharged,
      model: request.usageReport?.model ?? null,
      inputTokens: request.usageReport?.inputTokens ?? 0,
      outputTokens: request.usageReport?.outputTokens ?? 0,
      createdAt: new Date(),
    });
    done();
  });

  app.addHook('onClose', async () => recorder.close());
}

export default fp(usagePlugin, { name: 'usage', fastify: '5.x', dependencies: ['spend'] });
