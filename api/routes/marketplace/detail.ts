import { isoUtc, statement } from '../../../shared/db/sql';
import type { Actor } from '../../access/actor';
import { looksLikeSlug } from '../../wire';
import { agentNotFound } from './access';
import { flowSql, LIST_ITEM_COLUMNS, listItem, type ListItemRow } from './listing';
import { TOOL_PRICES_JSON } from './owner-views';
import type { AgentDetail, AgentSlugInput } from './schemas';
import type { MarketplaceDeps } from './service';

/**
 * `GET /marketplace/agents/:slug` in one statement: the agent, its figures from the read
 * model, its tool prices and its linked token, returned only when the caller may see it.
 *
 * The visibility condition is `visibleAgent`'s (access.ts) in SQL: the owner always;
 * anyone while published; after an unpublish, callers with a succeeded call or a subscription
 * until `listedUntil`, and a subscriber until the end of the period paid; a draft (no
 * monetization) its owner only. Anything else is the same 404 as an unknown slug.
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
    where a.slug = $1
      and (a.owner_id = $2::int
           or a.is_published
           or (a.monetization is not null and $2::int is not null
               and ((a.listed_until > $3::timestamptz
                     and (exists (select 1 from agent_calls c
                                   where c.agent_id = a.id and c.caller_id = $2::int
                                     and c.status = 'succeeded')
                          or exists (select 1 from agent_subscriptions u
                                      where u.agent_id = a.id and u.subscriber_id = $2::int)))
                    or exists (select 1 from agent_subscriptions u
                                where u.agent_id = a.id and u.subscriber_id = $2::int
                                  and u.period_end > $3::timestamptz))))`,
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
  return {
    ...listItem(row),
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
  };
}
