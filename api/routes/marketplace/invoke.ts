import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Agent } from '../../../shared/db/entities';
import type { EntityManager } from '../../../shared/db/orm';
import { flowNumber } from '../../../shared/domain/flow';
import { startOfNextUtcDay } from '../../../shared/domain/calendar';
import { basePrice, toolsPrice } from '../../../shared/domain/pricing';
import { signatureHeaders } from '../../../shared/domain/signature';
import { isPlatformTool, PLATFORM_TOOL_NAMES } from '../../../shared/domain/tools';
import { AppError } from '../../../shared/errors';
import { holdFlow, releaseHold } from '../../../shared/flow/ledger';
import { OutboundError, type OutboundClient } from '../../../shared/net/outbound-client';
import {
  consumeFreeCall,
  hasActiveSubscription,
  recordFailedCall,
  returnFreeCall,
  settleCall,
  toolPriceMicros,
} from './charges';
import { fieldPath, UNSTORABLE_TEXT, unstorableTextPath } from '../../../shared/domain/text';
import type { Actor } from '../../access/actor';
import { checkPremiumAccess, visibleAgent } from './access';
import type { InvokeInput } from './schemas';

/**
 * Paid invocation (docs/spec/contract.md §6). The order keeps money safe: price the call, reserve the
 * maximum it can cost (key spend cap, then a hold on the caller's balance), call the agent,
 * then settle the real cost, the ledger rows and the 95/5 split in one transaction. Any
 * failure before settlement gives every reservation back, so a failed call costs nothing.
 */

export interface InvokeDeps {
  /** The request's EntityManager. */
  em: EntityManager;
  outbound: OutboundClient;
  timeoutMs: number;
  /** micro-FLOW: the settlement debit records `flow.balance.low` when it crosses this. */
  lowBalanceThreshold: bigint;
  /** Reports a failure after the charge was committed (logged; the call still succeeds). */
  onLateError(error: unknown): void;
  /** The spend cap of the API key the caller uses (no-ops without a key): `request.reserveFlow`. */
  reserveSpend(maxCost: bigint): Promise<void>;
  /** `request.settleFlow`: the real cost against the key's cap, once charged. */
  settleSpend(cost: bigint): Promise<void>;
}

/** What the agent's endpoint must answer (extra fields are ignored). */
const agentReply = z.object({
  output: z.unknown().refine((value) => value !== undefined, { message: 'is required' }),
  model: z.string().max(128).nullish(),
  toolsUsed: z.array(z.string()).max(64).default([]),
  usage: z
    .object({
      inputTokens: z.number().int().min(0).max(2_147_483_647).default(0),
      outputTokens: z.number().int().min(0).max(2_147_483_647).default(0),
    })
    .partial()
    .default({}),
});

type Compensation = () => Promise<unknown>;

/** The tools the caller permits (each once; default: all), or 400 `tool_unknown`. */
function permittedTools(tools: string[] | undefined): readonly string[] {
  const unknown = tools?.find((tool) => !isPlatformTool(tool));
  if (unknown !== undefined) {
    throw new AppError(
      'tool_unknown',
      `tools: ${unknown} is not a platform tool (GET /marketplace/tools)`,
    );
  }
  return tools ? [...new Set(tools)] : PLATFORM_TOOL_NAMES;
}

export async function invokeAgent(deps: InvokeDeps, actor: Actor, input: InvokeInput) {
  const { em } = deps;
  const permitted = permittedTools(input.tools);
  const now = new Date();
  const found = await visibleAgent(em, actor, input.slug, now);
  const { agent } = found;
  if (!agent.monetization) {
    throw new AppError('agent_not_published', `${agent.slug}: is not published yet`);
  }
  // Before pricing: a refused caller has nothing taken, held, sent or recorded.
  checkPremiumAccess(found, actor);
  const prices = await toolPriceMicros(em, agent.id);
  const compensations: Compensation[] = [];
  const callerId = actor.userId;
  const call = { callId: randomUUID(), agent, callerId, apiKeyId: actor.apiKey?.id ?? null };

  let settled;
  try {
    const base = await priceBase(em, agent, callerId, now, compensations);
    const maxCost = base + toolsPrice(permitted, prices);
    await deps.reserveSpend(maxCost);
    const holdId = await holdFor(em, callerId, maxCost, now, deps.timeoutMs);
    if (holdId) compensations.push(() => releaseHold(em, holdId, new Date()));

    const started = performance.now();
    const reply = await callEndpoint(
      deps.outbound,
      agent,
      call.callId,
      input.input,
      permitted,
    ).catch(async (error: unknown) => {
      const message = error instanceof AppError ? error.message : 'agent call failed';
      const latencyMs = Math.round(performance.now() - started);
      await recordFailedCall(em, { ...call, error: message, latencyMs, now: new Date() });
      throw error;
    });
    const toolsUsed = [...new Set(reply.toolsUsed)];
    const cost = base + toolsPrice(toolsUsed, prices);
    const usage = {
      inputTokens: reply.usage.inputTokens ?? 0,
      outputTokens: reply.usage.outputTokens ?? 0,
    };
    await settleCall(em, {
      ...call,
      holdId,
      lowBalanceThreshold: deps.lowBalanceThreshold,
      base,
      tools: toolsUsed.map((tool) => ({ tool, price: prices.get(tool) ?? 0n })),
      cost,
      latencyMs: Math.round(performance.now() - started),
      model: reply.model ?? null,
      ...usage,
      now: new Date(),
    });
    settled = { reply, toolsUsed, cost, usage };
  } catch (error) {
    for (const compensate of compensations.reverse()) await compensate();
    throw error;
  }
  // The charge is committed: from here on nothing may undo it or fail the response (a
  // retried request would be charged again).
  await deps.settleSpend(settled.cost).catch((error: unknown) => deps.onLateError(error));
  return {
    callId: call.callId,
    output: settled.reply.output,
    model: settled.reply.model ?? null,
    toolsUsed: settled.toolsUsed,
    usage: settled.usage,
    costFlow: flowNumber(settled.cost),
  };
}

/** The base price of this call; consumes a freemium call when one is used (undone on failure). */
async function priceBase(
  em: EntityManager,
  agent: Agent,
  callerId: number,
  now: Date,
  compensations: Compensation[],
): Promise<bigint> {
  const monetization = agent.monetization!;
  const isSubscriber =
    (monetization === 'subscription' || monetization === 'hybrid') &&
    (await hasActiveSubscription(em, agent.id, callerId, now));
  let freeCallGranted = false;
  if (monetization === 'freemium') {
    freeCallGranted = await consumeFreeCall(em, agent, callerId, now);
    if (freeCallGranted) compensations.push(() => returnFreeCall(em, agent.id, callerId, now));
  }
  const price = basePrice({
    monetization,
    perCallPrice: agent.perCallPrice == null ? null : BigInt(agent.perCallPrice),
    isSubscriber,
    freeCallGranted,
  });
  switch (price.kind) {
    case 'charged':
      return price.amount;
    case 'covered':
      return 0n;
    case 'needs_subscription':
      throw new AppError(
        'subscription_required',
        `${agent.slug}: calls need an active subscription (POST /agents/${agent.slug}/subscribe)`,
      );
    case 'quota_exhausted': {
      const resetsAt = startOfNextUtcDay(now);
      const retryAfter = Math.max(1, Math.ceil((resetsAt.getTime() - now.getTime()) / 1000));
      throw new AppError(
        'free_quota_exhausted',
        `${agent.slug}: today's ${agent.freemiumDailyCalls} free calls are used; the quota resets at ${resetsAt.toISOString()}`,
        { 'retry-after': String(retryAfter) },
      );
    }
  }
}

/** Holds `amount` on the caller's balance for the longest the call can take, or 402. */
async function holdFor(
  em: EntityManager,
  callerId: number,
  amount: bigint,
  now: Date,
  timeoutMs: number,
): Promise<string | null> {
  if (amount === 0n) return null;
  // Long enough for the call and its settlement; the maintenance sweep frees it after a crash.
  const expiresAt = new Date(now.getTime() + timeoutMs + 5 * 60_000);
  const holdId = await holdFlow(em, callerId, amount, now, expiresAt);
  if (!holdId) {
    throw new AppError(
      'insufficient_flow',
      `this call can cost up to ${flowNumber(amount)} FLOW, more than your spendable balance`,
    );
  }
  return holdId;
}

/** POSTs the signed call to the agent's endpoint and validates its answer. */
async function callEndpoint(
  outbound: OutboundClient,
  agent: Agent,
  callId: string,
  input: unknown,
  tools: readonly string[],
): Promise<z.infer<typeof agentReply>> {
  const body = JSON.stringify({ callId, input, tools });
  const headers = signatureHeaders({
    secret: agent.endpointSecret,
    id: callId,
    timestamp: Math.floor(Date.now() / 1000),
    body,
  });
  let response;
  try {
    response = await outbound.postJson(agent.endpointUrl, body, headers);
  } catch (error) {
    if (error instanceof OutboundError && error.kind === 'timeout') {
      throw new AppError('agent_timeout', `${agent.slug}: the agent did not answer in time`);
    }
    const reason =
      error instanceof OutboundError ? describeOutboundError(error) : 'the call failed';
    throw new AppError('agent_failed', `${agent.slug}: ${reason}`);
  }
  if (response.status < 200 || response.status > 299) {
    throw new AppError('agent_failed', `${agent.slug}: the agent answered HTTP ${response.status}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(response.body);
  } catch {
    throw new AppError('agent_failed', `${agent.slug}: the agent's answer is not JSON`);
  }
  // Text the ledger and the call log could not store is the agent's fault: a 502 now, not a
  // 500 at the write after the agent was paid for.
  const unstorable = unstorableTextPath(parsed);
  if (unstorable) {
    throw new AppError(
      'agent_failed',
      `${agent.slug}: the agent's answer is invalid (${fieldPath(unstorable, 'body')}: ${UNSTORABLE_TEXT})`,
    );
  }
  const reply = agentReply.safeParse(parsed);
  if (!reply.success) {
    const issue = reply.error.issues[0];
    throw new AppError(
      'agent_failed',
      `${agent.slug}: the agent's answer is invalid (${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'})`,
    );
  }
  const stray = reply.data.toolsUsed.find((tool) => !tools.includes(tool));
  if (stray !== undefined) {
    throw new AppError(
      'agent_failed',
      `${agent.slug}: the agent reported tool "${stray.slice(0, 64)}", which this call did not permit`,
    );
  }
  return reply.data;
}

function describeOutboundError(error: OutboundError): string {
  switch (error.kind) {
    case 'too_large':
      return 'the agent’s answer is too large';
    case 'forbidden_address':
    case 'invalid_url':
      return 'the agent’s endpoint may not be called (address not allowed)';
    default:
      return 'the agent’s endpoint could not be reached';
  }
}
