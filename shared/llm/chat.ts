import { z } from 'zod';
import type { Config } from '../config';

/**
 * One chat-completions call to the configured OpenAI-compatible endpoint (`LLM_*`): the build
 * brain (workers/build/llm) and the AI metadata fill (api/routes/ai) both go through it. It
 * sends the body as given, with the model and the bearer key, and reads the first choice; every
 * way the call can fail is an `LlmCallError` whose `kind` says what the caller should do.
 * Messages name the status only, never the provider's body, which may echo the request.
 */

export type LlmConfig = NonNullable<Config['llm']>;

/**
 * `unreachable`, `timeout`, `busy` (429), `failing` (5xx) and `unreadable` (a body that is not a
 * chat completion) may heal by trying again later; `rejected` (another 4xx: a bad key, an
 * unknown model, a request the backend does not support) will not.
 */
export type LlmFailure = 'unreachable' | 'timeout' | 'busy' | 'failing' | 'unreadable' | 'rejected';

export class LlmCallError extends Error {
  constructor(
    readonly kind: LlmFailure,
    message: string,
    /** The provider's `Retry-After` in seconds, when it sent one. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
    this.name = 'LlmCallError';
  }

  get retryable(): boolean {
    return this.kind !== 'rejected';
  }
}

const completionSchema = z.object({
  model: z.string().nullish(),
  choices: z
    .array(
      z.object({
        finish_reason: z.string().nullish(),
        message: z.object({
          content: z.string().nullish(),
          refusal: z.string().nullish(),
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

/** The first choice of a completion, and the model that answered. */
export interface ChatChoice {
  model: string | null;
  finishReason: string | null;
  content: string | null;
  refusal: string | null;
  toolCalls: { name: string; arguments: string }[];
}

/**
 * Posts `body` (messages, tools or response_format, sampling settings) with the configured
 * model. `signal` ends the call (a deadline: `AbortSignal.timeout`); without one, the
 * configured `LLM_TIMEOUT_MS` does.
 */
export async function requestChatCompletion(
  llm: LlmConfig,
  body: Record<string, unknown>,
  signal: AbortSignal = AbortSignal.timeout(llm.timeoutMs),
): Promise<ChatChoice> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (llm.apiKey) headers.authorization = `Bearer ${llm.apiKey}`;
  let response: Response;
  try {
    response = await fetch(`${llm.baseUrl}/chat/completions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ model: llm.model, ...body }),
      signal,
    });
  } catch (err) {
    throw callFailure(err, signal);
  }
  if (response.status === 429 || response.status >= 500) {
    await response.body?.cancel();
    throw new LlmCallError(
      response.status === 429 ? 'busy' : 'failing',
      `the LLM endpoint answered ${response.status}`,
      retryAfterOf(response.headers.get('retry-after')),
    );
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new LlmCallError('rejected', `the LLM endpoint refused the request (${response.status})`);
  }
  let json: unknown;
  try {
    json = await response.json();
  } catch (err) {
    if (signal.aborted) throw callFailure(err, signal);
    json = null;
  }
  const parsed = completionSchema.safeParse(json);
  if (!parsed.success) {
    throw new LlmCallError('unreadable', 'the LLM endpoint answered with an unreadable body');
  }
  const choice = parsed.data.choices[0]!;
  return {
    model: parsed.data.model ?? null,
    finishReason: choice.finish_reason ?? null,
    content: choice.message.content ?? null,
    refusal: choice.message.refusal ?? null,
    toolCalls: (choice.message.tool_calls ?? []).map((call) => ({
      name: call.function.name,
      arguments: call.function.arguments ?? '',
    })),
  };
}

function callFailure(err: unknown, signal: AbortSignal): LlmCallError {
  const timedOut =
    (err as Error).name === 'TimeoutError' ||
    (signal.aborted && (signal.reason as Error | undefined)?.name === 'TimeoutError');
  return timedOut
    ? new LlmCallError('timeout', 'the LLM endpoint did not answer in time')
    : new LlmCallError('unreachable', 'the LLM endpoint could not be reached');
}

/** `Retry-After` as seconds (delta or HTTP date), or null when absent or unreadable. */
function retryAfterOf(header: string | null): number | null {
  if (!header) return null;
  const seconds = /^\d+$/.test(header.trim())
    ? Number(header.trim())
    : (Date.parse(header) - Date.now()) / 1000;
  return Number.isFinite(seconds) ? Math.max(0, Math.ceil(seconds)) : null;
}
