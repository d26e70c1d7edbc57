import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { ApiKey } from './api-key';

/**
 * `api_key_usage` summed per key, UTC hour, endpoint and model: the read model behind the
 * usage summary, so a month (or a key's whole life) reads at most a row per hour and
 * combination instead of every request. `model` is '' for requests without one. Kept exact by
 * statement-level triggers on `api_key_usage` (migration
 * `Migration20261126010000_api_key_usage_hourly`).
 */
export const ApiKeyUsageHourly = defineEntity({
  name: 'ApiKeyUsageHourly',
  tableName: 'api_key_usage_hourly',
  properties: {
    apiKey: () => p.manyToOne(ApiKey).primary().deleteRule('cascade'),
    hour: p.datetime(3).primary(),
    method: p.string().length(8).primary(),
    route: p.string().length(512).primary(),
    model: p.string().length(128).primary(),
    requests: p.bigint().default(0),
    errors: p.bigint().default(0),
    flowCost: p.bigint().default(0),
    inputTokens: p.bigint().default(0),
    outputTokens: p.bigint().default(0),
  },
});

export type ApiKeyUsageHourly = InferEntity<typeof ApiKeyUsageHourly>;
