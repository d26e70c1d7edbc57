import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { User } from './user';

/**
 * A login (docs/spec/contract.md §3). The JWT carries its id as `sid`; logout sets `revokedAt`, which
 * kills every token of the session at once. `expiresAt` follows the newest token issued.
 */
export const Session = defineEntity({
  name: 'Session',
  tableName: 'sessions',
  properties: {
    id: p.uuid().primary(),
    user: () => p.manyToOne(User).deleteRule('cascade').index(),
    createdAt: p.datetime(3),
    expiresAt: p.datetime(3),
    revokedAt: p.datetime(3).nullable(),
  },
});

export type Session = InferEntity<typeof Session>;
