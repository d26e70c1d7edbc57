import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * A platform user. `address` is the wallet they signed in with (SIWE), stored lowercase and
 * unique; null for an account with no wallet (a messaging-app login), which then has no
 * on-chain state. `matrixUserId` is the Matrix account linked by `POST /auth/matrix` (also a
 * way to sign in), where the bot delivers the user's notifications.
 */
export const User = defineEntity({
  name: 'User',
  tableName: 'users',
  checks: [{ name: 'users_address_lowercase', expression: 'address = lower(address)' }],
  properties: {
    id: p.integer().primary().autoincrement(),
    address: p.string().length(42).nullable().unique(),
    matrixUserId: p.string().length(255).nullable().unique(),
    createdAt: p
      .datetime(3)
      .defaultRaw('now()')
      .onCreate(() => new Date()),
  },
});

export type User = InferEntity<typeof User>;
