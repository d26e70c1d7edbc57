import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { User } from './user';

/**
 * FLOW reserved for one call in flight. Settling or releasing deletes it; one left behind by a
 * crashed process is released by the maintenance sweep after `expiresAt`.
 */
export const FlowHold = defineEntity({
  name: 'FlowHold',
  tableName: 'flow_holds',
  checks: [{ name: 'flow_holds_amount_positive', expression: 'amount > 0' }],
  properties: {
    id: p.uuid().primary(),
    user: () => p.manyToOne(User).deleteRule('cascade').index(),
    amount: p.bigint(),
    createdAt: p.datetime(3),
    expiresAt: p.datetime(3).index(),
  },
});

export type FlowHold = InferEntity<typeof FlowHold>;
