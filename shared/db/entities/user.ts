import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A wallet-identified user. The address is stored lowercase and is unique. */
export const User = defineEntity({
  name: 'User',
  tableName: 'users',
  checks: [{ name: 'users_address_lowercase', expression: 'address = lower(address)' }],
  properties: {
    id: p.integer().primary().autoincrement(),
    address: p.string().length(42).unique(),
    createdAt: p
      .datetime(3)
      .defaultRaw('now()')
      .onCreate(() => new Date()),
  },
});

export type User = InferEntity<typeof User>;
