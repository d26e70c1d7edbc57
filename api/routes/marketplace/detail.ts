import { isoUtc, statement } from '../../../shared/db/sql';
import type { Actor } from '../../access/actor';
import { looksLikeSlug } from '../../wire';
import { agentNotFound, agentVisibleSql } from './access';
import { flowSql, LIST_ITEM_COLUMNS, listItem, type ListItemRow } from './listing';
import { TOOL_PRICES_JSON } from './owner-views';
import type { AgentDetail, AgentSlugInput } from './schemas';
import type { MarketplaceDeps } from './service';

/**
 * `GET /marketplace/agents/:slug` in one statement: the agent, its figures from the read
 * model, its tool prices and its linked token, returned only when the caller may see it
 * (`agentVisibleSql`, access.ts: the rule `visibleAgent` runs too). Anything else is the same
 * 404 as an unknown slug.
 */

interface DetailRow extends ListItemRow {
  description: string | null;
  isPublished: boolean;
  publishedAt: string | null;
  subscriptionFlowPerMonth: number | null;
  freemiumDailyCalls: number | null;
  toolPrices: { tool: string; perCallFlow: number }[];
  linkedToken: AgentDetail['linkedToken'];
}

const agentDetailStatement = statement<
  DetailRow,
  [slug: string, callerId: number | null, now: Date]
>(
  'marketplace.agent_detail',
  `select ${LIST_ITEM_COLUMNS},
          a.description, a.is_published as "isPublished",
          ${isoUtc('a.published_at')} as "publishedAt",
          ${flowSql('a.subscription_price')} as "subscriptionFlowPerMonth",
          a.freemium_daily_calls as "freemiumDailyCalls",
          ${TOOL_PRICES_JSON} as "toolPrices",
          case when t.id is not null then
            json_build_object('slug', t.slug, 'name', t.name, 'ticker', t.ticker,
                              'chainId', t.chain_id, 'instance', t.instance,
                              'imageUrl', t.image_url)
          end as "linkedToken"
     from agents a
     left join agent_market_stats s on s.agent_id = a.id
     left join tokens t on t.id = a.token_id
    where a.slug = $1 and ${agentVisibleSql('a', '$2::int', '$3::timestamptz')}`,
);

/** The detail of the agent `slug` as the actor (null when anonymous) may see it now. */
export async function agentDetail(
  deps: Pick<MarketplaceDeps, 'db'>,
  actor: Actor | null,
  input: AgentSlugInput,
): Promise<AgentDetail> {
  const { slug } = input;
  const row = looksLikeSlug(slug)
    ? await deps.db.row(agentDetailStatement, [slug, actor?.userId ?? null, new Date()])
    : undefined;
  if (!row) throw agentNotFound(slug);
  // Object.assign, not `{ ...listItem(row), … }`: docs/decisions.md "Hot mappers extend a
  // fresh object".
  return Object.assign(listItem(row), {
    description: row.description,
    isPublished: row.isPublished,
    publishedAt: row.publishedAt,
    monetizationConfig: {
      model: row.monetization,
      perCallPriceFlow: row.perCallPriceFlow,
      subscriptionFlowPerMonth: row.subscriptionFlowPerMonth,
      freemiumDailyCalls: row.freemiumDailyCalls,
    },
    toolPrices: row.toolPrices,
    linkedToken: row.linkedToken,
  });
}
