import type { AgentTemplate } from '../../shared/db/entities/project';
import type { RunJournal } from './journal';

/** What a brain knows about the project it builds. */
export interface BuildProject {
  id: string;
  slug: string;
  title: string;
  brief: string;
  template: AgentTemplate;
  ownerId: number;
}

export interface ToolCallRequest {
  tool: string;
  args: unknown;
}

/**
 * One turn's decision: what the assistant says and the tools it calls, in order. A decision
 * without tool calls means the build is finished.
 */
export interface Decision {
  text: string | null;
  calls: ToolCallRequest[];
}

export interface BrainInput {
  project: BuildProject;
  runId: string;
  journal: RunJournal;
}

/** A plan the owner rejected (docs/guides/approvals.md), for the brain's one new plan. */
export interface PlanFeedback {
  steps: string[];
  comment: string | null;
}

/**
 * Decides a build's plan and its turns. Brains are stateless: everything they know of the run
 * so far is in the journal (the run's event log), so any worker can take over any turn.
 */
export interface Brain {
  plan(input: BrainInput & { feedback?: PlanFeedback }): Promise<string[]>;
  decide(input: BrainInput & { turn: number }): Promise<Decision>;
}

/** How many tool calls one turn may make; more are dropped. */
export const MAX_CALLS_PER_TURN = 10;
