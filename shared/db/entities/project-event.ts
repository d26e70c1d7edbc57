import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Project } from './project';

/**
 * The project stream's event log: `seq` is gap-free per project, the last 1000 are kept.
 * `eventKey` is the emitting step's deterministic key, so a retried step finds its event
 * instead of writing a second one.
 */
export const ProjectEvent = defineEntity({
  name: 'ProjectEvent',
  tableName: 'project_events',
  uniques: [{ name: 'project_events_key_unique', properties: ['project', 'eventKey'] }],
  properties: {
    project: () => p.manyToOne(Project).deleteRule('cascade').primary(),
    seq: p.bigint('number').primary(),
    runId: p.uuid(),
    type: p.string().length(32),
    data: p.json<Record<string, unknown>>(),
    eventKey: p.string().length(200),
    createdAt: p.datetime(3),
  },
});

export type ProjectEvent = InferEntity<typeof ProjectEvent>;
