import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../shared/config';
import type { AgentTemplate } from '../../shared/db/entities/project';
import type { RunStatus } from '../../shared/db/entities/project-run';
import { sqlOf, statement } from '../../shared/db/sql';
import type { Brain, BuildProject } from './brain';
import { buildFailure } from './errors';
import { createLlmBrain } from './llm/brain';
import { deterministicBrain } from './templates';

export type Planner = 'llm' | 'deterministic';

export interface RunRef {
  projectId: string;
  runId: string;
}

export interface RunContext {
  project: BuildProject;
  status: RunStatus;
  planner: string;
}

/** A run with what the build needs of its project. */
interface RunRow {
  slug: string;
  title: string;
  brief: string;
  agentTemplate: AgentTemplate;
  ownerId: number;
  status: RunStatus;
  planner: string;
}
const runWithProject = statement<RunRow, [runId: string, projectId: string]>(
  'build.run_with_project',
  `select p.slug, p.title, p.brief, p.agent_template as "agentTemplate", p.owner_id as "ownerId",
          r.status, r.planner
     from project_runs r join projects p on p.id = r.project_id
    where r.id = $1 and r.project_id = $2`,
);

/** The run and its project, or null when either is gone. */
export async function loadRun(
  em: EntityManager,
  projectId: string,
  runId: string,
): Promise<RunContext | null> {
  const row = await sqlOf(em).row(runWithProject, [runId, projectId]);
  if (!row) return null;
  return {
    project: {
      id: projectId,
      slug: row.slug,
      title: row.title,
      brief: row.brief,
      template: row.agentTemplate,
      ownerId: row.ownerId,
    },
    status: row.status,
    planner: row.planner,
  };
}

export async function requireRun(
  em: EntityManager,
  projectId: string,
  runId: string,
): Promise<RunContext> {
  const run = await loadRun(em, projectId, runId);
  if (!run) throw buildFailure('the run or its project no longer exists', { retryable: false });
  return run;
}

/** The planner a new run gets on this worker. */
export function plannerFor(config: Config): Planner {
  return config.llm ? 'llm' : 'deterministic';
}

/**
 * The brain of a run, from the planner recorded when it began: a run never switches brains
 * half-way, even if a retry lands on a worker configured differently.
 */
export function brainFor(planner: string, config: Config): Brain {
  if (planner !== 'llm') return deterministicBrain;
  if (!config.llm) {
    throw buildFailure('this run was planned by an LLM, but no LLM is configured on the worker', {
      retryable: false,
    });
  }
  return createLlmBrain(config.llm);
}
