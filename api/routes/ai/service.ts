import { createHash, randomUUID } from 'node:crypto';
import type { Config } from '../../../shared/config';
import type { AiFillOutcome } from '../../../shared/db/entities/ai-generation';
import { statement, type Sql } from '../../../shared/db/sql';
import { AppError } from '../../../shared/errors';
import type { Logger } from '../../../shared/logger';
import { LlmCallError, requestChatCompletion } from '../../../shared/llm/chat';
import type { Actor } from '../../access/actor';
import { takeQuota } from '../../access/bucket';
import type { RateLimiter } from '../../access/rate-limiter';
import { tickerOf } from '../tokens/service';
import {
  checkAnswer,
  repairPrompt,
  responseFormat,
  systemPrompt,
  type AgentSuggestion,
  type FillKind,
  type Keep,
  type TokenSuggestion,
} from './rules';

/**
 * `POST /ai/token-metadata` and `POST /ai/agent-metadata` (docs/spec/contract.md §15): the
 * configured OpenAI-compatible model suggests metadata; nothing is applied. One deadline
 * covers the whole fill: the first answer and, when it breaks a rule, the one repair turn with
 * the broken rules listed. Every fill that reached the model is recorded (`ai_generations`)
 * with a hash of the brief, never the brief: it is neither stored nor logged.
 */

export interface AiDeps {
  config: Pick<Config, 'llm' | 'aiFill'>;
  db: Sql;
  limiter: RateLimiter;
  logger: Logger;
}

export interface FillRequest {
  kind: FillKind;
  brief: string;
  keep: Keep;
  variants: number;
  /** Only for tokens. */
  template?: string;
  /** The API request's id: the answer's `requestId`, and the generation row's. */
  requestId: string;
}

export interface FillResult<T> {
  suggestions: T[];
  model: string;
  requestId: string;
}

// `Retry-After` of a 503 when the provider gave none: longer when it said it is busy.
const BUSY_RETRY_AFTER_S = 30;
const FAILING_RETRY_AFTER_S = 10;
const MAX_RETRY_AFTER_S = 3600;

const takenTickers = statement<{ ticker: string }, [tickers: string[]]>(
  'ai.taken_tickers',
  'select distinct ticker from tokens where ticker = any($1::text[])',
);

const recordGeneration = statement<
  Record<string, never>,
  [
    id: string,
    userId: number,
    kind: FillKind,
    briefSha256: string,
    model: string,
    outcome: AiFillOutcome,
    requests: number,
    latencyMs: number,
    requestId: string,
  ]
>(
  'ai.record_generation',
  `insert into ai_generations (id, user_id, kind, brief_sha256, model, outcome, requests,
                               latency_ms, request_id, created_at)
   values ($1, $2, $3, $4, $5, $6, $7, $8, $9, now())`,
);

export async function fillTokenMetadata(
  deps: AiDeps,
  actor: Actor,
  request: FillRequest,
): Promise<FillResult<TokenSuggestion>> {
  return fill(deps, actor, request) as Promise<FillResult<TokenSuggestion>>;
}

export async function fillAgentMetadata(
  deps: AiDeps,
  actor: Actor,
  request: FillRequest,
): Promise<FillResult<AgentSuggestion>> {
  return fill(deps, actor, request) as Promise<FillResult<AgentSuggestion>>;
}

/** The caller's `keep`, checked as a create would check it: before the model is asked. */
export async function checkedKeep(deps: Pick<AiDeps, 'db'>, keep: Keep | undefined): Promise<Keep> {
  if (keep?.ticker === undefined) return { ...keep };
  const ticker = tickerOf(keep.ticker);
  const [taken] = await deps.db.rows(takenTickers, [[ticker]]);
  if (taken) {
    throw new AppError('ticker_taken', `keep.ticker: ${ticker} is already used by another token`);
  }
  return { ...keep, ticker };
}

async function fill(
  deps: AiDeps,
  actor: Actor,
  request: FillRequest,
): Promise<FillResult<TokenSuggestion | AgentSuggestion>> {
  const llm = deps.config.llm;
  if (!llm) {
    throw new AppError(
      'ai_unavailable',
      'AI metadata fill needs a model: set LLM_BASE_URL to an OpenAI-compatible endpoint ' +
        '(with LLM_API_KEY and LLM_MODEL) and restart the API',
    );
  }
  const { perMinute, perDay, timeoutMs } = deps.config.aiFill;
  const user = `ai:user:${actor.userId}`;
  await takeQuota(deps.limiter, {
    bucket: `${user}:minute`,
    limit: perMinute,
    windowSeconds: 60,
    what: 'AI fill limit',
  });
  await takeQuota(deps.limiter, {
    bucket: `${user}:day`,
    limit: perDay,
    windowSeconds: 86_400,
    what: 'AI fill limit',
  });

  const started = performance.now();
  const deadline = AbortSignal.timeout(timeoutMs);
  const messages: { role: 'system' | 'user' | 'assistant'; content: string }[] = [
    { role: 'system', content: systemPrompt(request.kind, request.variants) },
    // The brief travels as a JSON string value: data, never part of the instructions.
    {
      role: 'user',
      content: JSON.stringify({
        brief: request.brief,
        ...(request.template ? { template: request.template } : {}),
        ...(Object.keys(request.keep).length > 0 ? { keep: request.keep } : {}),
        variants: request.variants,
      }),
    },
  ];
  let model = llm.model;
  let requests = 0;
  let outcome: AiFillOutcome = 'unavailable';
  try {
    for (;;) {
      requests += 1;
      const choice = await requestChatCompletion(
        llm,
        {
          messages,
          response_format: responseFormat(request.kind),
          temperature: 0.7,
          max_tokens: 400 + 300 * request.variants,
        },
        deadline,
      );
      model = choice.model ?? llm.model;
      if (choice.refusal || choice.finishReason === 'content_filter') {
        outcome = 'refused';
        throw new AppError('ai_refused', refusalMessage(choice.refusal));
      }
      const checked =
        choice.finishReason === 'length'
          ? {
              violations: [
                'the answer was cut off (finish_reason length): keep every field within its limit',
              ],
            }
          : await checkAnswer(
              request.kind,
              choice.content,
              { variants: request.variants, keep: request.keep },
              async (tickers) =>
                (await deps.db.rows(takenTickers, [tickers])).map((row) => row.ticker),
            );
      if ('suggestions' in checked) {
        outcome = requests === 1 ? 'ok' : 'repaired';
        return { suggestions: checked.suggestions, model, requestId: request.requestId };
      }
      if (requests === 2) {
        outcome = 'invalid_output';
        throw new AppError(
          'ai_invalid_output',
          'the model’s answer broke the rules after one repair: ' +
            checked.violations.slice(0, 3).join('; '),
        );
      }
      messages.push(
        { role: 'assistant', content: choice.content ?? '' },
        { role: 'user', content: repairPrompt(checked.violations) },
      );
    }
  } catch (err) {
    if (err instanceof LlmCallError) throw unavailable(deps, err, timeoutMs);
    throw err;
  } finally {
    await deps.db.run(recordGeneration, [
      randomUUID(),
      actor.userId,
      request.kind,
      createHash('sha256').update(request.brief).digest('hex'),
      model,
      outcome,
      requests,
      Math.round(performance.now() - started),
      request.requestId,
    ]);
  }
}

function refusalMessage(refusal: string | null): string {
  if (!refusal) return 'the model’s content filter stopped the answer; rephrase the brief';
  const text = refusal.length > 200 ? `${refusal.slice(0, 200)}…` : refusal;
  return `the model declined this brief: ${text}`;
}

/** 503 `ai_unavailable` with `Retry-After`: the provider's when it sent one. */
function unavailable(deps: Pick<AiDeps, 'logger'>, err: LlmCallError, timeoutMs: number): AppError {
  const retryAfter = Math.min(
    MAX_RETRY_AFTER_S,
    Math.max(
      1,
      err.retryAfterSeconds ?? (err.kind === 'busy' ? BUSY_RETRY_AFTER_S : FAILING_RETRY_AFTER_S),
    ),
  );
  const messages: Record<LlmCallError['kind'], string> = {
    busy: 'the model is busy (its endpoint answered 429)',
    failing: 'the model’s endpoint is failing',
    timeout: `the model did not answer within ${timeoutMs / 1000} s`,
    unreachable: 'the model’s endpoint could not be reached',
    unreadable: 'the model’s endpoint answered with something that is not a chat completion',
    rejected: 'the model’s endpoint refused the request; the operators have been told',
  };
  // A refused request is this deployment's fault (key, model name, unsupported schema).
  if (err.kind === 'rejected') deps.logger.error({ err }, 'AI fill: the LLM endpoint refused');
  else deps.logger.warn({ kind: err.kind, message: err.message }, 'AI fill: the LLM failed');
  return new AppError('ai_unavailable', `${messages[err.kind]}; try again after ${retryAfter} s`, {
    'retry-after': String(retryAfter),
  });
}
