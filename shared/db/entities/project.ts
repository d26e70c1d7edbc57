import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Token } from './token';
import { User } from './user';

export const AGENT_TEMPLATES = [
  'fullstack-builder',
  'bot-builder',
  'content-machine',
  'research-agent',
] as const;
export type AgentTemplate = (typeof AGENT_TEMPLATES)[number];

/** Decisions §7. `queued` and `running` belong to the run in `currentRunId`. */
export const PROJECT_STATUSES = [
  'idle',
  'queued',
  'running',
  'completed',
  'failed',
  'canceled',
  'archived',
] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];

/**
 * A project attached to a token; agents build it in runs. A token has at most one project
 * that is not archived (partial unique index). `lastEventSeq` is the project's event counter:
 * it is bumped in the same transaction that inserts an event, so sequences have no gaps.
 */
export const Project = defineEntity({
  name: 'Project',
  tableName: 'projects',
  indexes: [
    {
      name: 'projects_token_active_unique',
      expression: `create unique index "projects_token_active_unique" on "projects" ("token_id") where "status" <> 'archived'`,
    },
    { properties: ['owner', 'createdAt', 'id'] },
  ],
  checks: [{ name: 'projects_last_event_seq_nonnegative', expression: 'last_event_seq >= 0' }],
  properties: {
    id: p.uuid().primary(),
    owner: () => p.manyToOne(User).deleteRule('cascade'),
    token: () => p.manyToOne(Token).deleteRule('cascade').index(),
    slug: p.string().length(80).unique(),
    title: p.string().length(120),
    brief: p.text(),
    agentTemplate: p.enum([...AGENT_TEMPLATES]),
    private: p.boolean().default(false),
    status: p.enum([...PROJECT_STATUSES]),
    currentRunId: p.uuid().nullable(),
    lastEventSeq: p.bigint('number').default(0),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
    archivedAt: p.datetime(3).nullable(),
  },
});

export type Project = InferEntity<typeof Project>;
