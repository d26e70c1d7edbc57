import { imageUrlOf } from '../media/image-field';
import { randomUUID } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { Config } from '../../../shared/config';
import { Agent, AgentToolPrice } from '../../../shared/db/entities';
import type { Monetization } from '../../../shared/db/entities/agent';
import { MONETIZATIONS } from '../../../shared/db/entities/agent';
import type { EntityManager } from '../../../shared/db/orm';
import { sqlOf, statement, type Sql } from '../../../shared/db/sql';
import { startOfNextUtcMonth } from '../../../shared/domain/calendar';
import type { CursorCodec } from '../../../shared/domain/cursor';
import { flowNumber, MAX_FLOW, parseFlow } from '../../../shared/domain/flow';
import { generateSigningSecret } from '../../../shared/domain/signature';
import { slugify, suffixedSlug } from '../../../shared/domain/slug';
import { isPlatformTool, PLATFORM_TOOLS } from '../../../shared/domain/tools';
import { AppError } from '../../../shared/errors';
import { checkOutboundUrl } from '../../../shared/net/outbound-url';
import { enqueueOutboxEvent } from '../../../shared/outbox/outbox';
import type { Actor } from '../../access/actor';
import { looksLikeSlug } from '../../wire';
import { ownedToken } from '../tokens/access';
import { agentNotFound, ownedAgent } from './access';
import { iso, ownerView, toolPricesOf } from './owner-views';
import {
  MAX_FREEMIUM_DAILY_CALLS,
  type AgentSlugInput,
  type CreateAgentInput,
  type PublishInput,
  type ToolPricesInput,
  type UpdateAgentInput,
} from './schemas';

/**
 * Agents as their owners manage them (spec "Marketplace", docs/spec/contract.md §6). The
 * marketplace reads are in `listing.ts`, `detail.ts` and `owner-views.ts`, ratings in
 * `stats.ts`, paid calls in `invoke.ts` and agent subscriptions in `subscribe.ts`.
 */

export interface MarketplaceDeps {
  /** Writes: the request's EntityManager. */
  em: EntityManager;
  /** Reads: prepared statements, no entities. */
  db: Sql;
  cursors: CursorCodec;
  config: Pick<Config, 'webhookAllowedHosts' | 'publicBaseUrl' | 'media'>;
}

type AgentServiceDeps = Pick<MarketplaceDeps, 'em' | 'config'>;

async function checkedEndpoint(deps: AgentServiceDeps, url: string): Promise<string> {
  const allowedHosts = deps.config.webhookAllowedHosts;
  return (await checkOutboundUrl(url, { allowedHosts }, 'endpointUrl')).href;
}

const SLUG_ATTEMPTS = 5;

type NoRow = Record<string, never>;

/** Locks the agent `slug` (if any) for the rest of the transaction: publishes queue on it. */
const lockAgentBySlug = statement<NoRow, [slug: string]>(
  'marketplace.lock_agent_by_slug',
  'select 1 from agents where slug = $1 for update',
);

/** Locks the agent for the rest of the transaction: price list replacements queue on it. */
const lockAgentById = statement<NoRow, [agentId: string]>(
  'marketplace.lock_agent_by_id',
  'select 1 from agents where id = $1 for update',
);

/**
 * Creates a draft agent. A slug left out derives from the name; when that one is taken a
 * random suffix is tried, and the unique constraint (not a prior read) decides, so two
 * concurrent creations with the same name never collide.
 */
export async function createAgent(deps: AgentServiceDeps, actor: Actor, input: CreateAgentInput) {
  const { userId } = actor;
  const endpointUrl = await checkedEndpoint(deps, input.endpointUrl);
  const imageUrl = await imageUrlOf(sqlOf(deps.em), deps.config, input);
  const base = input.slug ?? slugify(input.name, 'agent');
  const now = new Date();
  const secret = generateSigningSecret();
  const id = randomUUID();
  let slug = base;
  for (let attempt = 1; ; attempt++) {
    try {
      await deps.em.insert(Agent, {
        id,
        owner: userId,
        slug,
        name: input.name,
        description: input.description ?? null,
        tags: input.tags ?? [],
        imageUrl: imageUrl ?? null,
        endpointUrl,
        endpointSecret: secret,
        premium: input.premium ?? false,
        isPublished: false,
        createdAt: now,
        updatedAt: now,
      });
      break;
    } catch (error) {
      if (!(error instanceof UniqueConstraintViolationException)) throw error;
      if (input.slug !== undefined) {
        throw new AppError('slug_taken', `slug: ${input.slug} is already taken`);
      }
      if (attempt >= SLUG_ATTEMPTS) throw error;
      slug = suffixedSlug(base);
    }
  }
  const agent = await deps.em.findOneOrFail(Agent, id);
  return { ...(await ownerView(deps.em, agent)), endpointSecret: secret };
}

export async function updateAgent(
  deps: AgentServiceDeps,
  actor: Actor,
  input: AgentSlugInput & UpdateAgentInput,
) {
  const agent = await ownedAgent(deps.em, actor, input.slug);
  if (input.endpointUrl !== undefined) {
    agent.endpointUrl = await checkedEndpoint(deps, input.endpointUrl);
  }
  if (input.name !== undefined) agent.name = input.name;
  if (input.description !== undefined) agent.description = input.description;
  if (input.tags !== undefined) agent.tags = input.tags;
  const imageUrl = await imageUrlOf(sqlOf(deps.em), deps.config, input);
  if (imageUrl !== undefined) agent.imageUrl = imageUrl;
  if (input.premium !== undefined) agent.premium = input.premium;
  agent.updatedAt = new Date();
  await deps.em.flush();
  return ownerView(deps.em, agent);
}

type FieldUse = 'required' | 'optional' | 'unused';

/** Which price fields each model takes (decisions in docs: hybrid = subscription + per call). */
const MODEL_FIELDS: Record<
  Monetization,
  { perCallPriceFlow: FieldUse; subscriptionFlowPerMonth: FieldUse; freemiumDailyCalls: FieldUse }
> = {
  per_call: {
    perCallPriceFlow: 'required',
    subscriptionFlowPerMonth: 'unused',
    freemiumDailyCalls: 'unused',
  },
  subscription: {
    perCallPriceFlow: 'unused',
    subscriptionFlowPerMonth: 'required',
    freemiumDailyCalls: 'unused',
  },
  hybrid: {
    perCallPriceFlow: 'required',
    subscriptionFlowPerMonth: 'required',
    freemiumDailyCalls: 'unused',
  },
  // The price applies to calls beyond the daily free quota; without one they are refused.
  freemium: {
    perCallPriceFlow: 'optional',
    subscriptionFlowPerMonth: 'unused',
    freemiumDailyCalls: 'required',
  },
};

export interface MonetizationSettings {
  monetization: Monetization;
  perCallPrice: bigint | null;
  subscriptionPrice: bigint | null;
  freemiumDailyCalls: number | null;
}

function invalidMonetization(message: string): AppError {
  return new AppError('invalid_monetization', message);
}

function priceOf(field: string, value: unknown): bigint {
  const micro =
    typeof value === 'number' && value >= 0 && value <= MAX_FLOW ? parseFlow(value) : null;
  if (micro === null) {
    throw invalidMonetization(`${field}: must be a number of FLOW from 0 to ${MAX_FLOW}`);
  }
  return micro;
}

/** Every problem with the model and its fields is `invalid_monetization`, naming the field. */
export function parseMonetization(input: PublishInput): MonetizationSettings {
  const model = input.monetization;
  if (model === undefined || model === null) throw invalidMonetization('monetization: is required');
  if (typeof model !== 'string' || !(MONETIZATIONS as readonly string[]).includes(model)) {
    throw invalidMonetization(`monetization: must be one of ${MONETIZATIONS.join(', ')}`);
  }
  const monetization = model as Monetization;
  const uses = MODEL_FIELDS[monetization];
  const given = (field: keyof typeof uses): unknown => {
    const value = input[field];
    if (value === undefined || value === null) {
      if (uses[field] === 'required') {
        throw invalidMonetization(`${field}: is required for the ${monetization} model`);
      }
      return undefined;
    }
    if (uses[field] === 'unused') {
      throw invalidMonetization(`${field}: is not used by the ${monetization} model`);
    }
    return value;
  };
  const perCall = given('perCallPriceFlow');
  const subscription = given('subscriptionFlowPerMonth');
  const freeCalls = given('freemiumDailyCalls');
  if (
    freeCalls !== undefined &&
    !(
      Number.isInteger(freeCalls) &&
      Number(freeCalls) >= 1 &&
      Number(freeCalls) <= MAX_FREEMIUM_DAILY_CALLS
    )
  ) {
    throw invalidMonetization(
      `freemiumDailyCalls: must be an integer from 1 to ${MAX_FREEMIUM_DAILY_CALLS}`,
    );
  }
  return {
    monetization,
    perCallPrice: perCall === undefined ? null : priceOf('perCallPriceFlow', perCall),
    subscriptionPrice:
      subscription === undefined ? null : priceOf('subscriptionFlowPerMonth', subscription),
    freemiumDailyCalls: freeCalls === undefined ? null : Number(freeCalls),
  };
}

/** `agent.published` data: the listing as buyers see it, FLOW as numbers, snake_case. */
function publishedEvent(agent: Agent, marketplaceUrl: string) {
  const flowOrNull = (micro: bigint | string | null | undefined) =>
    micro == null ? null : flowNumber(BigInt(micro));
  return {
    slug: agent.slug,
    marketplace_meta: {
      name: agent.name,
      description: agent.description ?? null,
      tags: agent.tags,
      monetization: agent.monetization ?? null,
      per_call_price_flow: flowOrNull(agent.perCallPrice),
      subscription_flow_per_month: flowOrNull(agent.subscriptionPrice),
      freemium_daily_calls: agent.freemiumDailyCalls ?? null,
      marketplace_url: marketplaceUrl,
      published_at: agent.publishedAt!.toISOString(),
    },
  };
}

/**
 * Publishes (or re-prices a live agent). The state change and its `agent.published` event
 * commit together; the event is keyed by the publication date, so a retried or repeated publish
 * of a live agent (which keeps its date) emits nothing new, and publishing after an unpublish
 * emits again.
 */
export async function publishAgent(
  deps: AgentServiceDeps,
  actor: Actor,
  input: AgentSlugInput & PublishInput,
) {
  const { slug } = input;
  // A slug that cannot exist never reaches SQL (a NUL byte would be a protocol error there).
  if (!looksLikeSlug(slug)) throw agentNotFound(slug);
  return deps.em.transactional(async (tx) => {
    // The row lock orders concurrent publishes: the second sees the first's date.
    await sqlOf(tx).run(lockAgentBySlug, [slug]);
    const agent = await ownedAgent(tx, actor, slug);
    const settings = parseMonetization(input);
    if (!agent.description) {
      throw new AppError(
        'invalid_request',
        'description: required before publishing (set it with PATCH /agents/:slug)',
      );
    }
    if (input.tokenSlug === null) agent.token = null;
    else if (input.tokenSlug !== undefined) {
      agent.token = await ownedToken(tx, actor, input.tokenSlug);
    }
    const now = new Date();
    Object.assign(agent, settings);
    agent.tags = input.tags;
    if (input.premium !== undefined) agent.premium = input.premium;
    // Republishing a live agent keeps its date; publishing again after unpublish starts anew.
    if (!agent.isPublished || !agent.publishedAt) agent.publishedAt = now;
    agent.isPublished = true;
    agent.unpublishedAt = null;
    agent.listedUntil = null;
    agent.updatedAt = now;
    await tx.flush();
    const marketplaceUrl = `${deps.config.publicBaseUrl}/marketplace/agents/${agent.slug}`;
    await enqueueOutboxEvent(tx, {
      userId: actor.userId,
      event: 'agent.published',
      data: publishedEvent(agent, marketplaceUrl),
      dedupeKey: `agent.published:${agent.id}:${agent.publishedAt.getTime()}`,
    });
    return {
      id: agent.id,
      slug: agent.slug,
      isPublished: true,
      publishedAt: agent.publishedAt.toISOString(),
      marketplaceUrl,
    };
  });
}

/** Idempotent; a draft that was never published has nothing to hide and stays as it is. */
export async function unpublishAgent(deps: AgentServiceDeps, actor: Actor, input: AgentSlugInput) {
  const agent = await ownedAgent(deps.em, actor, input.slug);
  if (agent.isPublished) {
    const now = new Date();
    agent.isPublished = false;
    agent.unpublishedAt = now;
    agent.listedUntil = startOfNextUtcMonth(now);
    agent.updatedAt = now;
    await deps.em.flush();
  }
  return {
    id: agent.id,
    slug: agent.slug,
    isPublished: false as const,
    unpublishedAt: iso(agent.unpublishedAt),
    listedUntil: iso(agent.listedUntil),
  };
}

/** Replaces the whole price list in one transaction; the agent row lock orders concurrent ones. */
export async function replaceToolPrices(
  deps: Pick<MarketplaceDeps, 'em'>,
  actor: Actor,
  input: AgentSlugInput & ToolPricesInput,
) {
  const { em } = deps;
  const { tools } = input;
  const unknown = tools.find((entry) => !isPlatformTool(entry.tool));
  const agent = await ownedAgent(em, actor, input.slug);
  if (unknown) {
    throw new AppError(
      'tool_unknown',
      `tools: ${unknown.tool.slice(0, 64)} is not a platform tool (GET /marketplace/tools)`,
    );
  }
  await em.transactional(async (tx) => {
    await sqlOf(tx).run(lockAgentById, [agent.id]);
    await tx.nativeDelete(AgentToolPrice, { agent: agent.id });
    if (tools.length > 0) {
      await tx.insertMany(
        AgentToolPrice,
        tools.map((entry) => ({ agent: agent.id, tool: entry.tool, price: entry.perCallFlow })),
      );
    }
    await tx.nativeUpdate(Agent, { id: agent.id }, { updatedAt: new Date() });
  });
  const prices = await toolPricesOf(em, [agent.id]);
  return { slug: agent.slug, toolPrices: prices.get(agent.id) ?? [] };
}

/** The platform tools an agent may use and price: the same for every caller. */
export function listTools(_deps: MarketplaceDeps, _actor: Actor | null) {
  return {
    items: Object.entries(PLATFORM_TOOLS).map(([tool, description]) => ({ tool, description })),
  };
}
