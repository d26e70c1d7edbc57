import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { ApiKey } from './api-key';

/** One request made with an API key (spec Authentication rule 5), written in batches. */
export const ApiKeyUsage = defineEntity({
  name: 'ApiKeyUsage',
  tableName: 'api_key_usage',
  indexes: [{ properties: ['apiKey', 'createdAt', 'id'] }],
  properties: {
    id: p.uuid().primary(),
    apiKey: () => p.manyToOne(ApiKey).deleteRule('cascade'),
    method: p.string().length(8),
    route: p.string().length(512),
    status: p.smallint(),
    latencyMs: p.integer(),
    flowCost: p.bigint().default(0),
    model: p.string().length(128).nullable(),
    inputTokens: p.integer().default(0),
    outputTokens: p.integer().default(0),
    createdAt: p.datetime(3),
  },
});

export type ApiKeyUsage = InferEntity<typeof ApiKeyUsage>;
