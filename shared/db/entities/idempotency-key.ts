import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * One Idempotency-Key use (docs/spec/contract.md §2). The row is claimed atomically before the handler
 * runs (`in_progress`), then completed with the stored response. Rows past `expiresAt`
 * count as absent and are purged by the idempotency sweep workflow.
 */
export const IdempotencyKey = defineEntity({
  name: 'IdempotencyKey',
  tableName: 'idempotency_keys',
  uniques: [{ properties: ['principal', 'method', 'path', 'key'] }],
  indexes: [{ properties: ['expiresAt'] }],
  properties: {
    id: p.uuid().primary(),
    principal: p.string().length(128),
    method: p.string().length(8),
    path: p.string().length(2048),
    key: p.string().length(255),
    fingerprint: p.string().length(64),
    status: p.enum(['in_progress', 'completed']),
    responseStatus: p.integer().nullable(),
    responseHeaders: p.json<Record<string, string>>().nullable(),
    responseBody: p.text().nullable(),
    lockedAt: p.datetime(3).nullable(),
    createdAt: p.datetime(3),
    expiresAt: p.datetime(3),
  },
});

export type IdempotencyKey = InferEntity<typeof IdempotencyKey>;
