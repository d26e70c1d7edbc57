import { getAddress } from 'viem';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TokenTemplate } from '../../shared/db/entities/token';
import { sqlOf, statement, type Sql, type Statement } from '../../shared/db/sql';
import type { Batch, EventRow } from './decode';

/**
 * Writes of the chain index (docs/chain.md "Indexer"). Everything a range adds, the state
 * changes of the tokens it concerns and the cursor past it go in the caller's one
 * transaction, so a crash leaves either all of a range or none of it. Inserts are idempotent
 * on the log's (chain, block, log index).
 */

/** A table column, the row field it is read from, and the field's SQL type. */
type Column = readonly [column: string, field: string, type: string];

const POSITION: readonly Column[] = [
  ['block_number', 'blockNumber', 'bigint'],
  ['log_index', 'logIndex', 'int'],
  ['block_hash', 'blockHash', 'text'],
  ['tx_hash', 'txHash', 'text'],
  ['block_time', 'blockTime', 'timestamptz'],
];

type NoRow = Record<string, never>;

/** A range's rows of one table: the chain, then the rows as one JSON document. */
type InsertParams = [chainId: number, rows: string];

/**
 * Inserts a range's rows of one table in one statement: the rows go as one JSON parameter
 * (megabytes for a busy range), read back by `json_to_recordset` under their own (camelCase)
 * field names, so they are serialised once and never renamed. `json`, not `jsonb`: the text
 * is read once as it is, without building the binary form first (a fifth faster for a busy
 * range's trades).
 */
function insertRowsStatement(table: string, columns: readonly Column[]) {
  const all = [...columns, ...POSITION];
  return statement<NoRow, InsertParams>(
    `chain.insert_${table}`,
    `insert into ${table} (chain_id, ${all.map(([column]) => column).join(', ')})
     select $1::int, ${all.map(([, field]) => `"${field}"`).join(', ')}
       from json_to_recordset($2::json)
         as r(${all.map(([, field, type]) => `"${field}" ${type}`).join(', ')})
      order by "blockNumber", "logIndex"
     on conflict do nothing`,
  );
}

const insertLaunches = insertRowsStatement('chain_launches', [
  ['instance', 'instance', 'text'],
  ['template', 'template', 'text'],
  ['factory', 'factory', 'text'],
  ['ref', 'tokenId', 'uuid'],
  ['creator', 'creator', 'text'],
]);

const insertTransfers = insertRowsStatement('token_transfers', [
  ['instance', 'instance', 'text'],
  ['from_address', 'fromAddress', 'text'],
  ['to_address', 'toAddress', 'text'],
  ['value', 'value', 'numeric'],
]);

const insertTrades = insertRowsStatement('token_trades', [
  ['instance', 'instance', 'text'],
  ['kind', 'kind', 'text'],
  ['trader', 'trader', 'text'],
  ['amount_token', 'amountToken', 'numeric'],
  ['amount_payment', 'amountPayment', 'numeric'],
  ['price', 'price', 'numeric'],
  ['reserve_token', 'reserveToken', 'numeric'],
  ['locked_payment', 'lockedPayment', 'numeric'],
  ['price_before', 'priceBefore', 'numeric'],
  ['price_after', 'priceAfter', 'numeric'],
  ['supply_after', 'supplyAfter', 'numeric'],
]);

const insertEvents = insertRowsStatement('chain_events', [
  ['instance', 'instance', 'text'],
  ['emitter', 'emitter', 'text'],
  ['name', 'name', 'text'],
  ['subject', 'subject', 'text'],
  ['args', 'args', 'jsonb'],
]);

const insertTreasuryTransfers = insertRowsStatement('treasury_transfers', [
  ['token', 'token', 'text'],
  ['from_address', 'fromAddress', 'text'],
  ['to_address', 'toAddress', 'text'],
  ['value', 'value', 'numeric'],
]);

async function insertRows(
  sql: Sql,
  insert: Statement<NoRow, InsertParams>,
  chainId: number,
  rows: readonly object[],
): Promise<void> {
  if (rows.length === 0) return;
  await sql.run(insert, [chainId, JSON.stringify(rows)]);
}

/** A dpnm launch's protocol, tree, GWT and parameters, on its launch row. */
const setDpnmLaunch = statement<
  NoRow,
  [protocol: string, tree: string, gwt: string, params: string, chainId: number, instance: string]
>(
  'chain.set_dpnm_launch',
  `update chain_launches set protocol = $1, tree = $2, gwt = $3, params = $4::jsonb
    where chain_id = $5 and instance = $6`,
);

/** A tree position's activity extended (`TreeExtended`): never shortened. */
const extendTreeNode = statement<
  NoRow,
  [activeUntil: string, chainId: number, instance: string, address: string]
>(
  'chain.extend_tree_node',
  `update dpnm_tree_nodes set active_until = greatest(active_until, $1::bigint)
    where chain_id = $2 and instance = $3 and address = $4`,
);

interface TokenIdRow {
  id: string;
}

/** A graduation: the live token goes `graduating`, or `sentient` when its block is final. */
const graduateToken = statement<
  TokenIdRow,
  [state: 'graduating' | 'sentient', chainId: number, instance: string]
>(
  'chain.graduate_token',
  `update tokens set state = $1 where chain_id = $2 and lower(instance) = $3 and state = 'live'
   returning id`,
);

export interface TokenChange {
  tokenId: string;
  state: 'live' | 'graduating' | 'sentient' | 'failed';
  /** The launch's or the graduating buy's transaction; null for a failure. */
  txHash: string | null;
}

/** Writes a decoded range; returns the tokens whose state it changed. */
export async function writeBatch(
  tx: EntityManager,
  chainId: number,
  batch: Batch,
  safeBlock: number,
): Promise<TokenChange[]> {
  const sql = sqlOf(tx);
  const changes: TokenChange[] = [];
  // Launches first: the transfer triggers tell a curve's reserve by its launch's factory.
  await insertRows(sql, insertLaunches, chainId, batch.launches);
  for (const launch of batch.launches) {
    const linked = await linkLaunch(sql, chainId, launch.instance, launch.template, launch.tokenId);
    if (linked) changes.push({ tokenId: linked, state: 'live', txHash: launch.txHash });
  }
  for (const dpnm of batch.dpnmLaunches) {
    await sql.run(setDpnmLaunch, [
      dpnm.protocol,
      dpnm.tree,
      dpnm.gwt,
      JSON.stringify(dpnm.params),
      chainId,
      dpnm.instance,
    ]);
  }
  await insertRows(sql, insertTransfers, chainId, batch.transfers);
  // Events first: nothing reads them while trades go in, and the market reads both after.
  await insertRows(sql, insertEvents, chainId, batch.events);
  await insertRows(sql, insertTrades, chainId, batch.trades);
  // Settled by `settleTreasuryTransfers` once final, never here: this block may still be
  // orphaned.
  await insertRows(sql, insertTreasuryTransfers, chainId, batch.treasuryTransfers);
  for (const event of batch.events) {
    if (event.name === 'Activated') await placeInTree(sql, chainId, event);
    if (event.name === 'TreeExtended') {
      await sql.run(extendTreeNode, [
        event.args.activeUntil!,
        chainId,
        event.instance,
        event.subject!,
      ]);
    }
  }
  for (const trade of batch.trades) {
    if (trade.kind !== 'graduation') continue;
    const state = trade.blockNumber <= safeBlock ? 'sentient' : 'graduating';
    const rows = await sql.rows(graduateToken, [state, chainId, trade.instance]);
    for (const row of rows) changes.push({ tokenId: row.id, state, txHash: trade.txHash });
  }
  return changes;
}

/** The launch's token goes live with its instance, if it is a pending one of that template. */
const linkToken = statement<
  TokenIdRow,
  [instance: string, tokenId: string, chainId: number, template: TokenTemplate]
>(
  'chain.link_token',
  `update tokens set instance = $1, state = 'live'
    where id = $2 and chain_id = $3 and template = $4 and state = 'pending' and instance is null
    returning id`,
);

/** The launch row names the token it was linked to. */
const setLaunchToken = statement<NoRow, [tokenId: string, chainId: number, instance: string]>(
  'chain.set_launch_token',
  'update chain_launches set token_id = $1 where chain_id = $2 and instance = $3',
);

/**
 * Links a launch to the token its ref names (docs/spec/contract.md §10 "Linking"): only a `pending` token
 * of the same chain and template, and only once (a replayed launch stays unlinked).
 */
async function linkLaunch(
  sql: Sql,
  chainId: number,
  instance: string,
  template: TokenTemplate,
  tokenId: string,
): Promise<string | null> {
  const token = await sql.row(linkToken, [getAddress(instance), tokenId, chainId, template]);
  if (!token) return null;
  await sql.run(setLaunchToken, [token.id, chainId, instance]);
  return token.id;
}

type EventArg = EventRow['args'][string];

/** An `Activated` position (idempotent on the log's position). */
const insertTreeNode = statement<
  NoRow,
  [
    chainId: number,
    instance: string,
    address: string,
    parent: string | null,
    referrer: string | null,
    slot: EventArg | undefined,
    activeUntil: EventArg | undefined,
    blockNumber: number,
    logIndex: number,
    blockHash: string,
    txHash: string,
    blockTime: string,
  ]
>(
  'chain.insert_tree_node',
  `insert into dpnm_tree_nodes (chain_id, instance, address, parent, referrer, slot, active_until,
     block_number, log_index, block_hash, tx_hash, block_time)
   values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) on conflict do nothing`,
);

/** The new position's ancestor links: its parent at level 1, the parent's ancestors below. */
const insertTreePaths = statement<
  NoRow,
  [chainId: number, instance: string, parent: string, address: string, blockNumber: number]
>(
  'chain.insert_tree_paths',
  `insert into dpnm_tree_paths (chain_id, instance, ancestor, descendant, level, block_number)
   select $1::int, $2::text, $3::text, $4::text, 1, $5::bigint
   union all
   select chain_id, instance, ancestor, $4::text, level + 1, $5::bigint
     from dpnm_tree_paths
    where chain_id = $1::int and instance = $2::text and descendant = $3::text and level < 10
   on conflict do nothing`,
);

/** A new tree position and its ancestor links, up to 10 levels (the parent's plus one). */
async function placeInTree(sql: Sql, chainId: number, event: EventRow): Promise<void> {
  const { args } = event;
  const ZERO = '0x0000000000000000000000000000000000000000';
  const parent = String(args.parent) === ZERO ? null : String(args.parent);
  const referrer = String(args.referrer) === ZERO ? null : String(args.referrer);
  const address = event.subject!;
  await sql.run(insertTreeNode, [
    chainId,
    event.instance,
    address,
    parent,
    referrer,
    args.slot,
    args.activeUntil,
    event.blockNumber,
    event.logIndex,
    event.blockHash,
    event.txHash,
    event.blockTime,
  ]);
  if (!parent) return;
  await sql.run(insertTreePaths, [chainId, event.instance, parent, address, event.blockNumber]);
}

/** Every rollback statement takes the chain and the common ancestor, the last block kept. */
type Above = [chainId: number, ancestor: number];

/** One table's rows above the ancestor. */
function deleteAbove(table: string, column = 'block_number') {
  return statement<NoRow, Above>(
    `chain.rollback_${table}`,
    `delete from ${table} where chain_id = $1 and ${column} > $2`,
  );
}

const deleteTransfersAbove = deleteAbove('token_transfers');
const deleteTreasuryTransfersAbove = deleteAbove('treasury_transfers');
const deleteTradesAbove = deleteAbove('token_trades');
const deleteEventsAbove = deleteAbove('chain_events');
const deleteTreePathsAbove = deleteAbove('dpnm_tree_paths');
const deleteTreeNodesAbove = deleteAbove('dpnm_tree_nodes');
const deleteLaunchesAbove = deleteAbove('chain_launches');
const deleteBlocksAbove = deleteAbove('chain_blocks', 'number');

/** Tokens graduated by the removed blocks are `live` again. */
const ungraduateAbove = statement<TokenIdRow, Above>(
  'chain.rollback_graduations',
  `update tokens t set state = 'live'
     from token_trades g
    where g.chain_id = $1 and g.block_number > $2 and g.kind = 'graduation'
      and t.chain_id = g.chain_id and lower(t.instance) = g.instance
      and t.state in ('graduating', 'sentient')
   returning t.id`,
);

/** Tree positions extended by the removed blocks: their period from the events that remain. */
const recomputeTreeActivity = statement<NoRow, Above>(
  'chain.rollback_tree_activity',
  `update dpnm_tree_nodes n set active_until = coalesce((
     select max((e.args->>'activeUntil')::bigint) from chain_events e
      where e.chain_id = n.chain_id and e.instance = n.instance and e.subject = n.address
        and e.name in ('Activated', 'TreeExtended') and e.block_number <= $2), 0)
    where (n.chain_id, n.instance, n.address) in (
      select chain_id, instance, subject from chain_events
       where chain_id = $1 and block_number > $2 and name = 'TreeExtended')`,
);

/** Tokens linked by the removed blocks are `pending` again, without an instance. */
const unlinkAbove = statement<TokenIdRow, Above>(
  'chain.rollback_links',
  `update tokens t set instance = null, state = 'pending'
     from chain_launches l
    where l.chain_id = $1 and l.block_number > $2 and l.token_id = t.id
   returning t.id`,
);

/**
 * Takes back every row above `ancestor` (a reorg's common ancestor): transfers first, while
 * the launches that tell a curve's reserve are still there, so the triggers subtract exactly
 * what they added; tokens linked or graduated by the removed blocks go back to `pending` or
 * `live` (returned); tree activity periods are recomputed from the events that remain.
 */
export async function rollbackAbove(
  tx: EntityManager,
  chainId: number,
  ancestor: number,
): Promise<{ tokenId: string; state: 'live' | 'pending' }[]> {
  const sql = sqlOf(tx);
  const above: Above = [chainId, ancestor];
  await sql.run(deleteTransfersAbove, above);
  // In practice only unsettled ones: a transfer is settled once final, and a reorg deeper
  // than the finality depth is what confirming it assumed would not happen.
  await sql.run(deleteTreasuryTransfersAbove, above);
  const ungraduated = await sql.rows(ungraduateAbove, above);
  await sql.run(deleteTradesAbove, above);
  await sql.run(recomputeTreeActivity, above);
  await sql.run(deleteEventsAbove, above);
  await sql.run(deleteTreePathsAbove, above);
  await sql.run(deleteTreeNodesAbove, above);
  const unlinked = await sql.rows(unlinkAbove, above);
  await sql.run(deleteLaunchesAbove, above);
  await sql.run(deleteBlocksAbove, above);
  return [
    ...ungraduated.map(({ id }) => ({ tokenId: id, state: 'live' as const })),
    ...unlinked.map(({ id }) => ({ tokenId: id, state: 'pending' as const })),
  ];
}
