import {
  requestChatCompletion,
  LlmCallError,
  type ChatChoice,
  type LlmConfig,
} from '../../../shared/llm/chat';
import type { ToolCallRequest } from '../brain';
import { buildFailure } from '../errors';

/** A chat message of the OpenAI chat-completions API (the subset the runtime sends). */
export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | {
      role: 'assistant';
      content: string | null;
      tool_calls?: {
        id: string;
        type: 'function';
        function: { name: string; arguments: string };
      }[];
    }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface ChatRequest {
  messages: ChatMessage[];
  tools: unknown[];
  tool_choice: 'auto' | { type: 'function'; function: { name: string } };
}

export interface AssistantReply {
  text: string | null;
  calls: ToolCallRequest[];
}

/**
 * One chat-completions call (shared/llm/chat.ts). Network errors, timeouts, 429 and 5xx throw a
 * retryable build failure (Temporal retries the step a bounded number of times); other 4xx (bad
 * key, unknown model) cannot heal by retrying and fail the build at once.
 */
export async function chatCompletion(
  llm: LlmConfig,
  request: ChatRequest,
): Promise<AssistantReply> {
  let choice: ChatChoice;
  try {
    choice = await requestChatCompletion(llm, { ...request });
  } catch (err) {
    if (!(err instanceof LlmCallError)) throw err;
    const message =
      err.kind === 'timeout'
        ? `the LLM endpoint did not answer within ${llm.timeoutMs} ms`
        : err.message;
    throw buildFailure(message, { retryable: err.retryable });
  }
  return {
    text: choice.content?.trim() ? choice.content.trim() : null,
    calls: choice.toolCalls.map((call) => ({
      tool: call.name,
      args: parseArguments(call.arguments),
    })),
  };
}

/** Tool arguments arrive as a JSON string; anything unparsable is kept raw for the tool to refuse. */
function parseArguments(raw: string): unknown {
  if (raw.trim() === '') return {};
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}
