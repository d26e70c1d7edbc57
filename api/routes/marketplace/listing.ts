import { Agent, AgentToolPrice } from '../../../shared/db/entities';
import type { EntityManager } from '../../../shared/db/orm';
import type { CursorCodec } from '../../../shared/domain/cursor';
import { flowNumber } from '../../../shared/domain/flow';
import { AppError } from '../../../shared/errors';
import { pageScope } from '../../plugins/pagination';
import type { AgentDetail, AgentListItem, MarketplaceSort, OwnerAgentView } from './schemas';
import { NO_STATS, statsFor, utcDay, type AgentStats } from './stats';

/**
 * How agents are shown: the public listing (below), the detail and the owner view, each built
 * for a whole page with a fixed number of queries.
 *
 * The listing: published agents only, keyset-paginated in SQL.
 *
 * Sorts (every one ends with the id, so the order is total):
 * - trending: succeeded calls on the last 7 UTC days, today included; ties newest first.
 * - new: publishedAt, newest first.
 * - top_earning: gross FLOW billed on the last 30 UTC days, today included; ties newest first.
 * - top_rated: average rating; unrated agents last; ties by number of ratings, then id.
 *
 * The cursor carries the last row's sort values. An agent published while a client pages never
 * makes another repeat or vanish; an agent whose metric changes mid-walk may move (and so be
 * seen twice or not at all), which is inherent to sorting by live figures.
 */

type KeyType = 'numeric' | 'timestamptz' | 'uuid';

interface SortPlan {
  /** SQL for the sort metric of agent `a`; `?` is bound to the UTC day. */
  metric: string | null;
  /** Number of ratings (only top_rated breaks ties with it). */
  ratingCount: boolean;
  keys: { column: string; type: KeyType }[];
}

const dailySum = (column: string, days: number) =>
  `coalesce((select sum(s.${column}) from agent_daily_stats s
              where s.agent_id = a.id and s.day >= ?::date - ${days - 1}), 0)`;

const SORT_PLANS: Record<MarketplaceSort, SortPlan> = {
  new: {
    metric: null,
    ratingCount: false,
    keys: [
      { column: 'published_at', type: 'timestamptz' },
      { column: 'id', type: 'uuid' },
    ],
  },
  trending: {
    metric: dailySum('calls', 7),
    ratingCount: false,
    keys: [
      { column: 'metric', type: 'numeric' },
      { column: 'published_at', type: 'timestamptz' },
      { column: 'id', type: 'uuid' },
    ],
  },
  top_earning: {
    metric: dailySum('earnings', 30),
    ratingCount: false,
    keys: [
      { column: 'metric', type: 'numeric' },
      { column: 'published_at', type: 'timestamptz' },
      { column: 'id', type: 'uuid' },
    ],
  },
  top_rated: {
    // Ratings are 1 to 5, so 0 puts unrated agents after every rated one.
    metric: 'coalesce((select avg(r.rating) from agent_ratings r where r.agent_id = a.id), 0)',
    ratingCount: true,
    keys: [
      { column: 'metric', type: 'numeric' },
      { column: 'rating_count', type: 'numeric' },
      { column: 'id', type: 'uuid' },
    ],
  },
};

export interface MarketplaceQuery {
  cursor?: string | undefined;
  limit: number;
  tag?: string | undefined;
  sort: MarketplaceSort;
}

function decodePosition(cursors: CursorCodec, scope: string, cursor: string, length: number) {
  const position = cursors.decode(scope, cursor);
  const valid =
    Array.isArray(position) &&
    position.length === length &&
    position.every((value) => typeof value === 'string');
  if (!valid) throw new AppError('invalid_cursor', 'cursor: malformed, tampered or foreign');
  return position;
}

export async function listMarketplace(
  em: EntityManager,
  cursors: CursorCodec,
  query: MarketplaceQuery,
  now: Date,
): Promise<{ items: AgentListItem[]; nextCursor: string | null }> {
  const plan = SORT_PLANS[query.sort];
  const scope = pageScope('marketplace', { tag: query.tag ?? null, sort: query.sort });
  const after =
    query.cursor === undefined
      ? undefined
      : decodePosition(cursors, scope, query.cursor, plan.keys.length);

  const params: unknown[] = [];
  let metric = '0';
  if (plan.metric) {
    metric = plan.metric;
    if (plan.metric.includes('?')) params.push(utcDay(now));
  }
  const ratingCount = plan.ratingCount
    ? '(select count(*) from agent_ratings r where r.agent_id = a.id)'
    : '0';
  let filter = '';
  if (query.tag !== undefined) {
    filter = 'and a.tags @> array[?]::text[]';
    params.push(query.tag);
  }
  let keyset = '';
  if (after) {
    const columns = plan.keys.map((key) => `ranked.${key.column}`).join(', ');
    const values = plan.keys.map((key) => `?::${key.type}`).join(', ');
    keyset = `where (${columns}) < (${values})`;
    params.push(...after);
  }
  params.push(query.limit + 1);
  const rows = await em.execute<Record<string, string>[]>(
    // Keys leave as text (exact round trip through the cursor); `ranked.` sorts by the typed
    // column, not by the text alias of the same name.
    `select ${plan.keys.map((key) => `ranked.${key.column}::text as ${key.column}`).join(', ')}
       from (select a.id, a.published_at, ${metric}::numeric as metric,
                    ${ratingCount}::numeric as rating_count
               from agents a
              where a.is_published ${filter}) ranked
      ${keyset}
      order by ${plan.keys.map((key) => `ranked.${key.column} desc`).join(', ')}
      limit ?`,
    params,
  );

  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const nextCursor =
    rows.length > query.limit && last
      ? cursors.encode(
          scope,
          plan.keys.map((key) => last[key.column] ?? ''),
        )
      : null;
  const ids = page.map((row) => row.id ?? '');
  const agents = await em.find(Agent, { id: { $in: ids } }, { populate: ['token'] });
  const byId = new Map(agents.map((agent) => [agent.id, agent]));
  const stats = await statsFor(em, ids, now);
  const items = ids.flatMap((id) => {
    const agent = byId.get(id);
    return agent ? [listItem(agent, stats.get(id) ?? NO_STATS)] : [];
  });
  return { items, nextCursor };
}

const flowOrNull = (micro: bigint | null | undefined) =>
  micro === null || micro === undefined ? null : flowNumber(micro);

/** The list item of an agent whose `token` is populated. */
export function listItem(agent: Agent, stats: AgentStats): AgentListItem {
  return {
    slug: agent.slug,
    name: agent.name,
    imageUrl: agent.imageUrl ?? null,
    tags: agent.tags,
    monetization: agent.monetization ?? null,
    perCallPriceFlow: flowOrNull(agent.perCallPrice),
    stats,
    tokenSlug: agent.token?.slug ?? null,
  };
}

/** A nullable timestamp on the wire. */
export const iso = (date: Date | null | undefined) => date?.toISOString() ?? null;

/** Owner views of agents whose `token` is populated, with two queries at most for any number. */
export async function ownerViews(em: EntityManager, agents: Agent[]): Promise<OwnerAgentView[]> {
  await em.populate(agents, ['token']);
  const prices = await toolPricesOf(
    em,
    agents.map((agent) => agent.id),
  );
  return agents.map((agent) => ({
    id: agent.id,
    slug: agent.slug,
    name: agent.name,
    description: agent.description ?? null,
    tags: agent.tags,
    imageUrl: agent.imageUrl ?? null,
    endpointUrl: agent.endpointUrl,
    isPublished: agent.isPublished,
    publishedAt: iso(agent.publishedAt),
    unpublishedAt: iso(agent.unpublishedAt),
    listedUntil: iso(agent.listedUntil),
    monetization: agent.monetization ?? null,
    perCallPriceFlow: flowOrNull(agent.perCallPrice),
    subscriptionFlowPerMonth: flowOrNull(agent.subscriptionPrice),
    freemiumDailyCalls: agent.freemiumDailyCalls ?? null,
    tokenSlug: agent.token?.slug ?? null,
    toolPrices: prices.get(agent.id) ?? [],
    createdAt: agent.createdAt.toISOString(),
    updatedAt: agent.updatedAt.toISOString(),
  }));
}

/** Tool prices of the given agents, each list sorted by tool, in one query. */
export async function toolPricesOf(
  em: EntityManager,
  agentIds: readonly string[],
): Promise<Map<string, { tool: string; perCallFlow: number }[]>> {
  const byAgent = new Map<string, { tool: string; perCallFlow: number }[]>();
  if (agentIds.length === 0) return byAgent;
  const prices = await em.find(
    AgentToolPrice,
    { agent: { $in: [...agentIds] } },
    { orderBy: { tool: 'asc' } },
  );
  for (const price of prices) {
    const list = byAgent.get(price.agent.id) ?? [];
    list.push({ tool: price.tool, perCallFlow: flowNumber(price.price) });
    byAgent.set(price.agent.id, list);
  }
  return byAgent;
}

/** The public detail of an agent the caller may see (checked by `agentForCaller`). */
export async function agentDetail(
  em: EntityManager,
  agent: Agent,
  now: Date,
): Promise<AgentDetail> {
  await em.populate(agent, ['token']);
  const stats = await statsFor(em, [agent.id], now);
  const prices = await toolPricesOf(em, [agent.id]);
  const token = agent.token ?? null;
  return {
    ...listItem(agent, stats.get(agent.id) ?? NO_STATS),
    description: agent.description ?? null,
    isPublished: agent.isPublished,
    publishedAt: agent.publishedAt?.toISOString() ?? null,
    monetizationConfig: {
      model: agent.monetization ?? null,
      perCallPriceFlow: flowOrNull(agent.perCallPrice),
      subscriptionFlowPerMonth: flowOrNull(agent.subscriptionPrice),
      freemiumDailyCalls: agent.freemiumDailyCalls ?? null,
    },
    toolPrices: prices.get(agent.id) ?? [],
    linkedToken: token && {
      slug: token.slug,
      name: token.name,
      ticker: token.ticker,
      chainId: token.chainId,
      instance: token.instance ?? null,
      imageUrl: token.imageUrl ?? null,
    },
  };
}
