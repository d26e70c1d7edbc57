import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { logKey } from './chain-log-position';

/**
 * The journal of the launch contracts' events that have no table of their own (a `dpnm`
 * protocol's `Bought`, `Activated`, `UplinePaid`, `PoolUpdated`, …): decoded arguments as JSON
 * (amounts as decimal strings of base units), by emitter and by the address the event is
 * about (`subject`). Their events carry the state after the change, so the latest event of
 * a kind is the current value and a reorg only has to delete rows.
 */
export const ChainEvent = defineEntity({
  name: 'ChainEvent',
  tableName: 'chain_events',
  indexes: [
    {
      name: 'chain_events_instance_name_index',
      expression:
        'create index "chain_events_instance_name_index" on "chain_events" ("chain_id", "instance", "name", "block_number" desc, "log_index" desc)',
    },
    {
      name: 'chain_events_subject_index',
      expression:
        'create index "chain_events_subject_index" on "chain_events" ("chain_id", "instance", "subject", "name", "block_number" desc, "log_index" desc) where "subject" is not null',
    },
  ],
  properties: {
    ...logKey(),
    /** The launched token (lowercase) the emitting contract belongs to. */
    instance: p.string().length(42),
    emitter: p.string().length(42),
    name: p.string().length(32),
    subject: p.string().length(42).nullable(),
    args: p.json<Record<string, string | number | boolean>>(),
  },
});

export type ChainEvent = InferEntity<typeof ChainEvent>;
