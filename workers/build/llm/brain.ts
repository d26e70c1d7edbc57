import { MAX_CALLS_PER_TURN, type Brain } from '../brain';
import { buildFailure } from '../errors';
import { toolArgs } from '../tools/schemas';
import type { LlmConfig } from '../../../shared/llm/chat';
import { chatCompletion, type AssistantReply } from './client';
import { planRequest, turnRequest } from './transcript';

/**
 * The brain behind an OpenAI-compatible chat-completions endpoint with tool calling. Stateless:
 * every call carries the whole transcript, rebuilt from the run's events.
 */
export function createLlmBrain(llm: LlmConfig): Brain {
  return {
    async plan({ project, feedback }) {
      const steps = planFromReply(await chatCompletion(llm, planRequest(project, feedback)));
      if (!steps) throw buildFailure('the LLM did not answer with a plan', { retryable: true });
      return steps;
    },
    async decide({ project, journal, turn }) {
      const reply = await chatCompletion(llm, turnRequest(project, journal, turn));
      return { text: reply.text, calls: reply.calls.slice(0, MAX_CALLS_PER_TURN) };
    },
  };
}

function planFromReply(reply: AssistantReply): string[] | null {
  const call = reply.calls.find((candidate) => candidate.tool === 'update_plan');
  const candidate = call ? call.args : reply.text ? jsonIn(reply.text) : null;
  const parsed = toolArgs.update_plan.safeParse(candidate);
  return parsed.success ? parsed.data.steps : null;
}

/** The JSON object inside a text answer (models like to wrap it in a code fence). */
function jsonIn(text: string): unknown {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return null;
  try {
    return JSON.parse(text.slice(start, end + 1)) as unknown;
  } catch {
    return null;
  }
}
