import { AgentToolPrice, type Agent } from '../../../shared/db/entities';
import type { EntityManager } from '../../../shared/db/orm';
import { isoUtc, statement, type SqlReader } from '../../../shared/db/sql';
import type { CursorCodec } from '../../../shared/domain/cursor';
import { flowNumber } from '../../../shared/domain/flow';
import { AppError } from '../../../shared/errors';
import { pageScope } from '../../plugins/pagination';
import { flowSql } from './listing';
import type { OwnerAgentView } from './schemas';

/**
 * The owner view of agents: `GET /me/agents` reads it with one statement per page; the owner
 * routes that change an agent answer with the view of the entity they just wrote.
 */

/** The agent's tool prices sorted by tool, as a JSON array (`[]` when none), of agent `a`. */
export const TOOL_PRICES_JSON = `coalesce((
    select json_agg(json_build_object('tool', p.tool, 'perCallFlow', ${flowSql('p.price')})
                    order by p.tool)
      from agent_tool_prices p where p.agent_id = a.id), '[]'::json)`;

type OwnerViewRow = OwnerAgentView & { k0: string };
type OwnerPageParams = [ownerId: number, limit: number, ...after: string[]];

/** Newest first, as the index agents(owner_id, created_at, id) is read backwards. */
function ownerPageStatement(afterCursor: boolean) {
  return statement<OwnerViewRow, OwnerPageParams>(
    `my_agents_page${afterCursor ? '_after' : ''}`,
    `select a.id, a.slug, a.name, a.description, a.tags, a.image_url as "imageUrl",
            a.endpoint_url as "endpointUrl", a.is_published as "isPublished",
            ${isoUtc('a.published_at')} as "publishedAt",
            ${isoUtc('a.unpublished_at')} as "unpublishedAt",
            ${isoUtc('a.listed_until')} as "listedUntil",
            a.monetization,
            ${flowSql('a.per_call_price')} as "perCallPriceFlow",
            ${flowSql('a.subscription_price')} as "subscriptionFlowPerMonth",
            a.freemium_daily_calls as "freemiumDailyCalls",
            t.slug as "tokenSlug",
            ${TOOL_PRICES_JSON} as "toolPrices",
            ${isoUtc('a.created_at')} as "createdAt", ${isoUtc('a.updated_at')} as "updatedAt",
            a.created_at::text as k0
       from agents a
       left join tokens t on t.id = a.token_id
      where a.owner_id = $1
            ${afterCursor ? 'and (a.created_at, a.id) < ($3::timestamptz, $4::uuid)' : ''}
      order by a.created_at desc, a.id desc
      limit $2`,
  );
}

const OWNER_PAGE = { first: ownerPageStatement(false), after: ownerPageStatement(true) };

/** The caller's agents, newest first; the cursor holds the last row's createdAt and id. */
export async function ownerAgentsPage(
  db: SqlReader,
  cursors: CursorCodec,
  userId: number,
  query: { limit: number; cursor?: string | undefined },
): Promise<{ items: OwnerAgentView[]; nextCursor: string | null }> {
  const scope = pageScope('my-agents', { userId });
  let rows: OwnerViewRow[];
  if (query.cursor === undefined) {
    rows = await db.rows(OWNER_PAGE.first, [userId, query.limit + 1]);
  } else {
    const position = cursors.decode(scope, query.cursor);
    const valid =
      Array.isArray(position) &&
      position.length === 2 &&
      position.every((value) => typeof value === 'string');
    if (!valid) throw new AppError('invalid_cursor', 'cursor: malformed, tampered or foreign');
    rows = await db.rows(OWNER_PAGE.after, [userId, query.limit + 1, ...position]);
  }
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const nextCursor =
    rows.length > query.limit && last ? cursors.encode(scope, [last.k0, last.id]) : null;
  return { items: page.map(({ k0: _key, ...view }) => view), nextCursor };
}

const flowOrNull = (micro: bigint | null | undefined) =>
  micro === null || micro === undefined ? null : flowNumber(micro);

/** A nullable timestamp on the wire. */
export const iso = (date: Date | null | undefined) => date?.toISOString() ?? null;

/** The owner view of an agent just written through the EntityManager. */
export async function ownerView(em: EntityManager, agent: Agent): Promise<OwnerAgentView> {
  await em.populate(agent, ['token']);
  const prices = await toolPricesOf(em, [agent.id]);
  return {
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
  };
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
