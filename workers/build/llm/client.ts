import { z } from 'zod';
import type { Config } from '../../../shared/config';
import type { ToolCallRequest } from '../brain';
import { buildFailure } from '../errors';

export type LlmConfig = NonNullable<Config['llm']>;

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

const responseSchema = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullish(),
          tool_calls: z
            .array(
              z.object({
                function: z.object({ name: z.string(), arguments: z.string().nullish() }),
              }),
            )
            .nullish(),
        }),
      }),
    )
    .min(1),
});

/**
 * One chat-completions call. Network errors, timeouts, 429 and 5xx throw a retryable build
 * failure (Temporal retries the step a bounded number of times); other 4xx (bad key, unknown
 * model) cannot heal by retrying and fail the build at once. Messages name the status only,
 * never the provider's body, which may echo the request.
 */
export async function chatCompletion(
  llm: LlmConfig,
  request: ChatRequest,
): Promise<AssistantReply> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (llm.apiKey) headers.authorization = `Bearer ${llm.apiKey}`;
  let response: Response;
  try {
    response = await fetch(`${llm.baseUrl}/chat/completions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ model: llm.model, ...request }),
      signal: AbortSignal.timeout(llm.timeoutMs),
    });
  } catch (err) {
    const timedOut = (err as Error).name === 'TimeoutError';
    throw buildFailure(
      timedOut
        ? `the LLM endpoint did not answer within ${llm.timeoutMs} ms`
        : 'the LLM endpoint could not be reached',
      { retryable: true },
    );
  }
  if (response.status === 429 || response.status >= 500) {
    await response.body?.cancel();
    throw buildFailure(`the LLM endpoint answered ${response.status}`, { retryable: true });
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw buildFailure(`the LLM endpoint refused the request (${response.status})`, {
      retryable: false,
    });
  }
  const parsed = responseSchema.safeParse(await response.json().catch(() => null));
  if (!parsed.success) {
    throw buildFailure('the LLM endpoint answered with an unreadable body', { retryable: true });
  }
  const message = parsed.data.choices[0]!.message;
  return {
    text: message.content?.trim() ? message.content.trim() : null,
    calls: (message.tool_calls ?? []).map((call) => ({
      tool: call.function.name,
      args: parseArguments(call.function.arguments ?? ''),
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
