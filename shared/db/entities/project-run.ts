import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Project } from './project';

export const RUN_STATUSES = ['queued', 'running', 'completed', 'failed', 'canceled'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/**
 * One build of a project, run by the `project-build:<projectId>:<runId>` workflow. `headSha` is
 * the workspace's last commit; `artifact` a gzipped tarball of that commit, kept for download.
 */
export const ProjectRun = defineEntity({
  name: 'ProjectRun',
  tableName: 'project_runs',
  indexes: [{ properties: ['project', 'createdAt'] }],
  properties: {
    id: p.uuid().primary(),
    project: () => p.manyToOne(Project).deleteRule('cascade'),
    status: p.enum([...RUN_STATUSES]),
    planner: p.string().length(32),
    headSha: p.string().length(40).nullable(),
    reason: p.text().nullable(),
    artifact: p.blob().nullable().lazy(),
    artifactBytes: p.integer().nullable(),
    createdAt: p.datetime(3),
    startedAt: p.datetime(3).nullable(),
    finishedAt: p.datetime(3).nullable(),
  },
});

export type ProjectRun = InferEntity<typeof ProjectRun>;
