import { AgentToolPrice, type Agent } from '../../../shared/db/entities';
import type { EntityManager } from '../../../shared/db/orm';
import { isoUtc, statement } from '../../../shared/db/sql';
import { flowNumber } from '../../../shared/domain/flow';
import type { Actor } from '../../access/actor';
import { keyset, keysetOrder } from '../../paging/keyset';
import { pageScope } from '../../paging/page';
import { agentOwnedBySql } from './access';
import { flowSql } from './listing';
import type { OwnerAgentsInput, OwnerAgentView } from './schemas';
import type { MarketplaceDeps } from './service';

/**
 * The owner view of agents: `GET /me/agents` reads it with one statement per page; the owner
 * routes that change an agent answer with the view of the entity they just wrote.
 */

/** The agent's tool prices sorted by tool, as a JSON array (`[]` when none), of agent `a`. */
export const TOOL_PRICES_JSON = `coalesce((
    select json_agg(json_build_object('tool', p.tool, 'perCallFlow', ${flowSql('p.price')})
                    order by p.tool)
      from agent_tool_prices p where p.agent_id = a.id), '[]'::json)`;

type OwnerPageParams = [ownerId: number, ...after: string[], fetch: number];

/** Newest first, as the index agents(owner_id, created_at, id) is read backwards. */
const OWNER_ORDER = keysetOrder('desc', [
  { column: 'a.created_at', type: 'timestamptz', field: 'createdAt' },
  { column: 'a.id', type: 'uuid', field: 'id' },
]);

const ownerPage = statement<OwnerAgentView, OwnerPageParams>(
  'marketplace.owner_page',
  `select a.id, a.slug, a.name, a.description, a.tags, a.image_url as "imageUrl",
          a.endpoint_url as "endpointUrl", a.is_published as "isPublished",
          ${isoUtc('a.published_at')} as "publishedAt",
          ${isoUtc('a.unpublished_at')} as "unpublishedAt",
          ${isoUtc('a.listed_until')} as "listedUntil",
          a.monetization,
          ${flowSql('a.per_call_price')} as "perCallPriceFlow",
          ${flowSql('a.subscription_price')} as "subscriptionFlowPerMonth",
          a.freemium_daily_calls as "freemiumDailyCalls", a.premium,
          t.slug as "tokenSlug",
          ${TOOL_PRICES_JSON} as "toolPrices",
          ${isoUtc('a.created_at')} as "createdAt", ${isoUtc('a.updated_at')} as "updatedAt"
     from agents a
     left join tokens t on t.id = a.token_id
    where ${agentOwnedBySql('a', '$1')} and ${OWNER_ORDER.after(2)}
    order by ${OWNER_ORDER.orderBy}
    limit $${2 + OWNER_ORDER.arity}`,
);

/** The caller's agents, newest first (keyset pages, cursors as `paginate` wrote them). */
export async function ownerAgentsPage(
  deps: Pick<MarketplaceDeps, 'db' | 'cursors'>,
  actor: Actor,
  query: OwnerAgentsInput,
): Promise<{ items: OwnerAgentView[]; nextCursor: string | null }> {
  const { db, cursors } = deps;
  const { userId } = actor;
  const page = keyset(cursors, OWNER_ORDER, {
    scope: pageScope('my-agents', { userId }),
    cursor: query.cursor,
    limit: query.limit,
  });
  return page.page(await db.rows(ownerPage, [userId, ...page.after, page.fetch]));
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
    premium: agent.premium,
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
