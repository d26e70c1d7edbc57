import { statement } from '../../../shared/db/sql';

/**
 * The per-user reads of the chain index (docs/chain.md "User state"): one statement per
 * response. Each chain's FLOW is one dpnm launch: the instance `CHAIN_FLOW_TOKENS` names, else
 * the chain's first dpnm launch linked to a token of ours. Both statements take the chains as
 * two arrays, the chain ids and their named instances ('' where none is named), so the choice
 * is made in SQL and the answer needs no second round trip. Addresses are lowercase, amounts
 * integer strings of base units, times Unix seconds.
 */

/** The FLOW launch of each candidate chain, in the candidates' order (`position`). */
const FLOW_LAUNCHES = `flow as (
  select c.position, c.chain_id, l.instance, l.protocol, l.gwt, l.params, l.token_id
    from unnest($1::int[], $2::text[]) with ordinality as c(chain_id, named, position)
    join lateral (
      select l.instance, l.protocol, l.gwt, l.params, l.token_id from chain_launches l
       where l.chain_id = c.chain_id and l.template = 'dpnm' and l.protocol is not null
         and case when c.named <> '' then l.instance = c.named else l.token_id is not null end
       order by l.block_number, l.log_index
       limit 1) l on true)`;

/** The latest value of `field` among the subject's events named `names`: one probe each. */
function latest(field: string, names: string[]): string {
  const probes = names.map(
    (name) => `(select e.args, e.block_number, e.log_index from chain_events e
                 where e.chain_id = f.chain_id and e.instance = f.instance
                   and e.subject = $3 and e.name = '${name}'
                 order by e.block_number desc, e.log_index desc limit 1)`,
  );
  return `(select x.args->>'${field}' from (${probes.join(' union all ')}) x
            order by x.block_number desc, x.log_index desc limit 1)`;
}

export interface UserStateRow {
  chainId: number;
  instance: string;
  protocol: string;
  gwt: string;
  tokenSlug: string | null;
  /** The indexed block (null before the chain's first indexed range). */
  blockNumber: string | null;
  /** Unix seconds of that block. */
  headTime: string | null;
  flowBalance: string;
  gwtBalance: string;
  currentPrice: string;
  poolUsdt: string;
  dailyLimitFloor: string;
  incomeLimit: string | null;
  lifetimeIncome: string | null;
  claimableGwt: string | null;
  /** Null: never activated. */
  activeUntil: string | null;
  parent: string | null;
  subtreeSize: number | null;
  /** `[slot, address]` pairs of the occupied direct slots. */
  children: [number, string][];
  /** `[level, members]` pairs. */
  levels: [number, number][];
}

/**
 * `GET /me/flow-onchain`: per chain with a FLOW launch, the address's state there, for the
 * chains where the address has any activity (a balance row, a tree position, an event).
 */
export const userStates = statement<
  UserStateRow,
  [chainIds: number[], named: string[], address: string]
>(
  'onchain.user_states',
  `with ${FLOW_LAUNCHES}
   select f.chain_id as "chainId", f.instance, f.protocol, f.gwt, t.slug as "tokenSlug",
          (c.next_block - 1)::text as "blockNumber",
          extract(epoch from c.head_time)::bigint::text as "headTime",
          coalesce(held.balance, 0)::text as "flowBalance",
          coalesce(gwt.balance, 0)::text as "gwtBalance",
          coalesce(pool.args->>'price', f.params->>'initialPrice') as "currentPrice",
          coalesce(pool.args->>'poolUsdt', '0') as "poolUsdt",
          f.params->>'dailyLimitFloor' as "dailyLimitFloor",
          ${latest('incomeLimit', ['Bought', 'Sold', 'IncomeLimitBought'])} as "incomeLimit",
          ${latest('lifetimeIncome', ['Sold', 'UplinePaid'])} as "lifetimeIncome",
          ${latest('claimable', ['GwtAccrued', 'GwtClaimed'])} as "claimableGwt",
          n.active_until::text as "activeUntil", n.parent, n.subtree_size as "subtreeSize",
          (select coalesce(json_agg(json_build_array(k.slot, k.address) order by k.slot), '[]')
             from dpnm_tree_nodes k
            where k.chain_id = f.chain_id and k.instance = f.instance and k.parent = $3
          ) as children,
          (select coalesce(json_agg(json_build_array(s.level, s.members) order by s.level), '[]')
             from dpnm_subtree_levels s
            where s.chain_id = f.chain_id and s.instance = f.instance and s.address = $3
          ) as levels
     from flow f
     left join tokens t on t.id = f.token_id
     left join chain_cursors c on c.chain_id = f.chain_id
     left join token_holders held
       on held.chain_id = f.chain_id and held.instance = f.instance and held.address = $3
     left join token_holders gwt
       on gwt.chain_id = f.chain_id and gwt.instance = f.gwt and gwt.address = $3
     left join dpnm_tree_nodes n
       on n.chain_id = f.chain_id and n.instance = f.instance and n.address = $3
     left join lateral (
       select e.args from chain_events e
        where e.chain_id = f.chain_id and e.instance = f.instance and e.name = 'PoolUpdated'
        order by e.block_number desc, e.log_index desc limit 1) pool on true
    where held.address is not null or gwt.address is not null or n.address is not null
       or exists (select 1 from chain_events e
                   where e.chain_id = f.chain_id and e.instance = f.instance and e.subject = $3)
    order by f.position`,
);

export interface TreeRow {
  chainId: number;
  blockNumber: string | null;
  headTime: string | null;
  parent: string | null;
  /** `[level, members]` pairs. */
  levels: [number, number][];
  /** `[level, USDT base units]` pairs. */
  earned: [number, string][];
  /** `[address, parent, slot, activeUntil, subtreeSize, level]`, shallowest first. */
  members: [string, string, number, string, number, number][];
}

/**
 * `GET /me/tree`: the address's position on the first candidate chain with a FLOW launch, its
 * per-level counts and earnings, and every member down to `$4` levels, each with its own
 * subtree size: index range scans bounded by the answer, however large the tree.
 */
export const treeOf = statement<
  TreeRow,
  [chainIds: number[], named: string[], address: string, depth: number]
>(
  'onchain.tree',
  `with ${FLOW_LAUNCHES}, chosen as (select * from flow order by position limit 1)
   select f.chain_id as "chainId", (c.next_block - 1)::text as "blockNumber",
          extract(epoch from c.head_time)::bigint::text as "headTime", me.parent,
          (select coalesce(json_agg(json_build_array(s.level, s.members) order by s.level), '[]')
             from dpnm_subtree_levels s
            where s.chain_id = f.chain_id and s.instance = f.instance and s.address = $3
          ) as levels,
          (select coalesce(json_agg(json_build_array(g.level, g.amount::text) order by g.level),
                           '[]')
             from dpnm_earnings g
            where g.chain_id = f.chain_id and g.instance = f.instance and g.address = $3
          ) as earned,
          (select coalesce(json_agg(json_build_array(n.address, n.parent, n.slot,
                                                     n.active_until::text, n.subtree_size,
                                                     p.level)
                                    order by p.level), '[]')
             from dpnm_tree_paths p
             join dpnm_tree_nodes n
               on n.chain_id = p.chain_id and n.instance = p.instance and n.address = p.descendant
            where p.chain_id = f.chain_id and p.instance = f.instance and p.ancestor = $3
              and p.level <= $4
          ) as members
     from chosen f
     join dpnm_tree_nodes me
       on me.chain_id = f.chain_id and me.instance = f.instance and me.address = $3
     left join chain_cursors c on c.chain_id = f.chain_id`,
);
