import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { SPEND_PERIODS } from '../../domain/spend-period';
import { User } from './user';

/**
 * An API key (spec "API key", docs/spec/contract.md §4). Only the HMAC of the raw key is stored. Revocation
 * is soft (`revokedAt`); a rolled key keeps working until `expiresAt`, then counts as revoked.
 * Spend is integer micro-FLOW counted within the period starting at `spendPeriodStart`.
 */
export const ApiKey = defineEntity({
  name: 'ApiKey',
  tableName: 'api_keys',
  indexes: [{ properties: ['user', 'createdAt'] }],
  checks: [{ name: 'api_keys_spend_used_nonnegative', expression: 'spend_used >= 0' }],
  properties: {
    id: p.uuid().primary(),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    prefix: p.string().length(12),
    keyHash: p.string().length(64).unique(),
    name: p.string().length(64),
    rateLimitRpm: p.integer(),
    spendLimit: p.bigint().nullable(),
    spendPeriod: p.enum([...SPEND_PERIODS]),
    spendUsed: p.bigint().default(0),
    spendPeriodStart: p.datetime(3),
    lastUsedAt: p.datetime(3).nullable(),
    createdAt: p.datetime(3),
    revokedAt: p.datetime(3).nullable(),
    expiresAt: p.datetime(3).nullable(),
    rolledToId: p.uuid().nullable(),
  },
});

export type ApiKey = InferEntity<typeof ApiKey>;
