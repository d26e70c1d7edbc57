import type { AgentTemplate } from '../../../shared/db/entities/project';
import type { Brain, Decision } from '../brain';
import { botPlanner } from './bot';
import type { TemplatePlanner } from './common';
import { contentPlanner } from './content';
import { fullstackPlanner } from './fullstack';
import { researchPlanner } from './research';

const planners: Record<AgentTemplate, TemplatePlanner> = {
  'fullstack-builder': fullstackPlanner,
  'bot-builder': botPlanner,
  'content-machine': contentPlanner,
  'research-agent': researchPlanner,
};

/** The brain used when no LLM is configured: each template's fixed, real sequence of steps. */
export const deterministicBrain: Brain = {
  async plan({ project }) {
    return planners[project.template].steps(project);
  },
  async decide({ project, journal, turn }): Promise<Decision> {
    const script = planners[project.template].turns[turn - 1];
    // Past the script (only if the script's last turn were changed): nothing left to do.
    return script ? script(project, journal) : { text: null, calls: [] };
  },
};
