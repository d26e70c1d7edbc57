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
import type { ApiKeyCredential } from '../../access/api-key-store';
import {
  releaseSpend,
  reserveSpend,
  type KeyCharge,
  type SpendReservation,
} from '../../access/spend-guard';
import { checkPremiumAccess, visibleAgent } from './access';
import type { InvokeInput, InvokeResult } from './schemas';

/**
 * Paid invocation (docs/spec/contract.md §6, §5). The order keeps money safe: price the call,
 * reserve the maximum it can cost (on the API key's spend cap and as a hold on the caller's
 * balance, in one transaction), call the agent, then settle the real cost (the key's spend,
 * the debit, the ledger rows and the 95/5 split) in one transaction. Any failure before
 * settlement gives both reservations back in one transaction, so a failed call costs nothing
 * and counts nothing toward the cap.
 */

export interface InvokeDeps {
  /** The request's EntityManager. */
  em: EntityManager;
  outbound: OutboundClient;
  timeoutMs: number;
  /** micro-FLOW: the settlement debit records `flow.balance.low` when it crosses this. */
  lowBalanceThreshold: bigint;
  /**
   * Reports a failure after the charge (or its release) committed: logged, the response stands
   * (a retried request would be charged again).
   */
  onLateError(error: unknown): void;
  /**
   * Tells every instance that the key's spend moved, once the change committed: each caches
   * the key (and its spend, for the `X-FLOW-*` headers of requests that charge nothing).
   */
  keySpendMoved(key: ApiKeyCredential): Promise<void>;
}

/** A service's answer and what it charged the caller's API key (null: nothing). */
export interface Charged<Body> {
  body: Body;
  keyCharge: KeyCharge | null;
}

/** What a call holds while it runs: the key's reservation (with a key) and the balance hold. */
interface Reservation {
  spend: SpendReservation | null;
  holdId: string;
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

export async function invokeAgent(
  deps: InvokeDeps,
  actor: Actor,
  input: InvokeInput,
): Promise<Charged<InvokeResult>> {
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
  const key = actor.apiKey;
  const call = { callId: randomUUID(), agent, callerId, apiKeyId: key?.id ?? null };

  let settled;
  let reservation: Reservation | null = null;
  try {
    const base = await priceBase(em, agent, callerId, now, compensations);
    const maxCost = base + toolsPrice(permitted, prices);
    const reserved = await reserveCall(deps, key, callerId, maxCost, now);
    if (reserved) {
      reservation = reserved;
      compensations.push(() => releaseCall(em, reserved));
    }

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
    const spend = await settleCall(em, {
      ...call,
      holdId: reservation?.holdId ?? null,
      spend: reservation?.spend ?? null,
      lowBalanceThreshold: deps.lowBalanceThreshold,
      base,
      tools: toolsUsed.map((tool) => ({ tool, price: prices.get(tool) ?? 0n })),
      cost,
      latencyMs: Math.round(performance.now() - started),
      model: reply.model ?? null,
      ...usage,
      now: new Date(),
    });
    settled = { reply, toolsUsed, cost, usage, spend };
  } catch (error) {
    for (const compensate of compensations.reverse()) await compensate();
    // The reservation counted while the call ran: instances that read the key meanwhile
    // cache a spend that has gone back down.
    if (key && reservation?.spend) await noteSpendMoved(deps, key);
    throw error;
  }
  // The charge is committed: from here on nothing may undo it or fail the response (a
  // retried request would be charged again).
  if (key && settled.spend) await noteSpendMoved(deps, key);
  return {
    body: {
      callId: call.callId,
      output: settled.reply.output,
      model: settled.reply.model ?? null,
      toolsUsed: settled.toolsUsed,
      usage: settled.usage,
      costFlow: flowNumber(settled.cost),
    },
    keyCharge: settled.spend ? { cost: settled.cost, spend: settled.spend } : null,
  };
}

/** `deps.keySpendMoved`, whose failure is reported and never fails the request. */
export async function noteSpendMoved(
  deps: Pick<InvokeDeps, 'keySpendMoved' | 'onLateError'>,
  key: ApiKeyCredential,
): Promise<void> {
  await deps.keySpendMoved(key).catch((error: unknown) => deps.onLateError(error));
}

/**
 * Reserves the most the call can cost: on the caller's API key (402 `spend_limit_reached` past
 * its cap) and as a hold on the caller's balance (402 `insufficient_flow`), in one transaction,
 * so a refused hold leaves the key's spend untouched. Nothing for a call that costs nothing:
 * it passes even at the cap.
 */
async function reserveCall(
  deps: Pick<InvokeDeps, 'em' | 'timeoutMs'>,
  key: ApiKeyCredential | null,
  callerId: number,
  maxCost: bigint,
  now: Date,
): Promise<Reservation | null> {
  if (maxCost === 0n) return null;
  if (!key) {
    const holdId = await holdFor(deps.em, callerId, maxCost, now, deps.timeoutMs);
    return { spend: null, holdId };
  }
  return deps.em.transactional(async (tx) => {
    // The key's row before the account's: the lock order of every charge (spend-guard.ts).
    const spend = await reserveSpend(tx, key.id, maxCost, now);
    const holdId = await holdFor(tx, callerId, maxCost, now, deps.timeoutMs);
    return { spend, holdId };
  });
}

/** Gives a failed call's reservations back, both in one transaction. */
async function releaseCall(em: EntityManager, reservation: Reservation): Promise<void> {
  const { spend, holdId } = reservation;
  if (!spend) return releaseHold(em, holdId, new Date());
  await em.transactional(async (tx) => {
    await releaseSpend(tx, spend);
    await releaseHold(tx, holdId, new Date());
  });
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

/** Holds `amount` (> 0) on the caller's balance for the longest the call can take, or 402. */
async function holdFor(
  em: EntityManager,
  callerId: number,
  amount: bigint,
  now: Date,
  timeoutMs: number,
): Promise<string> {
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
