import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Project } from './project';
import { User } from './user';

/** A user who asked for a project's milestone notifications (sent by the messaging bot). */
export const ProjectSubscription = defineEntity({
  name: 'ProjectSubscription',
  tableName: 'project_subscriptions',
  properties: {
    project: () => p.manyToOne(Project).deleteRule('cascade').primary(),
    user: () => p.manyToOne(User).deleteRule('cascade').primary().index(),
    createdAt: p.datetime(3),
  },
});

export type ProjectSubscription = InferEntity<typeof ProjectSubscription>;
