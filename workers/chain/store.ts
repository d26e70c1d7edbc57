import { getAddress } from 'viem';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Batch } from './decode';
import { query } from './sql';

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

/**
 * Inserts a range's rows of one table in one statement: the rows go as one JSON parameter,
 * read back by `jsonb_to_recordset` under their own (camelCase) field names, so they are
 * serialised once and never renamed.
 */
async function insertRows(
  tx: EntityManager,
  table: string,
  columns: readonly Column[],
  chainId: number,
  rows: readonly object[],
): Promise<void> {
  if (rows.length === 0) return;
  const all = [...columns, ...POSITION];
  await query(
    tx,
    `insert into ${table} (chain_id, ${all.map(([column]) => column).join(', ')})
     select ?, ${all.map(([, field]) => `"${field}"`).join(', ')}
       from jsonb_to_recordset(?::jsonb)
         as r(${all.map(([, field, type]) => `"${field}" ${type}`).join(', ')})
      order by "blockNumber", "logIndex"
     on conflict do nothing`,
    [chainId, JSON.stringify(rows)],
  );
}

export interface TokenChange {
  tokenId: string;
  state: 'live' | 'graduating' | 'sentient';
}

/** Writes a decoded range; returns the tokens whose state it changed. */
export async function writeBatch(
  tx: EntityManager,
  chainId: number,
  batch: Batch,
  safeBlock: number,
): Promise<TokenChange[]> {
  const changes: TokenChange[] = [];
  // Launches first: the transfer triggers tell a curve's reserve by its launch's factory.
  await insertRows(
    tx,
    'chain_launches',
    [
      ['instance', 'instance', 'text'],
      ['template', 'template', 'text'],
      ['factory', 'factory', 'text'],
      ['ref', 'tokenId', 'uuid'],
      ['creator', 'creator', 'text'],
    ],
    chainId,
    batch.launches,
  );
  for (const launch of batch.launches) {
    const linked = await linkLaunch(tx, chainId, launch.instance, launch.template, launch.tokenId);
    if (linked) changes.push({ tokenId: linked, state: 'live' });
  }
  for (const dpnm of batch.dpnmLaunches) {
    await query(
      tx,
      `update chain_launches set protocol = ?, tree = ?, gwt = ?, params = ?::jsonb
        where chain_id = ? and instance = ?`,
      [dpnm.protocol, dpnm.tree, dpnm.gwt, JSON.stringify(dpnm.params), chainId, dpnm.instance],
    );
  }
  await insertRows(
    tx,
    'token_transfers',
    [
      ['instance', 'instance', 'text'],
      ['from_address', 'fromAddress', 'text'],
      ['to_address', 'toAddress', 'text'],
      ['value', 'value', 'numeric'],
    ],
    chainId,
    batch.transfers,
  );
  await insertRows(
    tx,
    'token_trades',
    [
      ['instance', 'instance', 'text'],
      ['kind', 'kind', 'text'],
      ['trader', 'trader', 'text'],
      ['amount_token', 'amountToken', 'numeric'],
      ['amount_payment', 'amountPayment', 'numeric'],
      ['price', 'price', 'numeric'],
      ['reserve_token', 'reserveToken', 'numeric'],
      ['locked_payment', 'lockedPayment', 'numeric'],
    ],
    chainId,
    batch.trades,
  );
  await insertRows(
    tx,
    'chain_events',
    [
      ['instance', 'instance', 'text'],
      ['emitter', 'emitter', 'text'],
      ['name', 'name', 'text'],
      ['subject', 'subject', 'text'],
      ['args', 'args', 'jsonb'],
    ],
    chainId,
    batch.events,
  );
  // Settled by `settleTreasuryTransfers` once final, never here: this block may still be
  // orphaned.
  await insertRows(
    tx,
    'treasury_transfers',
    [
      ['token', 'token', 'text'],
      ['from_address', 'fromAddress', 'text'],
      ['to_address', 'toAddress', 'text'],
      ['value', 'value', 'numeric'],
    ],
    chainId,
    batch.treasuryTransfers,
  );
  for (const event of batch.events) {
    if (event.name === 'Activated') await placeInTree(tx, chainId, event);
    if (event.name === 'TreeExtended') {
      await query(
        tx,
        `update dpnm_tree_nodes set active_until = greatest(active_until, ?::bigint)
          where chain_id = ? and instance = ? and address = ?`,
        [event.args.activeUntil, chainId, event.instance, event.subject],
      );
    }
  }
  for (const trade of batch.trades) {
    if (trade.kind !== 'graduation') continue;
    const final = trade.blockNumber <= safeBlock;
    const rows = await query<{ id: string }>(
      tx,
      `update tokens set state = ? where chain_id = ? and lower(instance) = ? and state = 'live'
       returning id`,
      [final ? 'sentient' : 'graduating', chainId, trade.instance],
    );
    for (const row of rows)
      changes.push({ tokenId: row.id, state: final ? 'sentient' : 'graduating' });
  }
  return changes;
}

/**
 * Links a launch to the token its ref names (docs/spec/contract.md §10 "Linking"): only a `pending` token
 * of the same chain and template, and only once (a replayed launch stays unlinked).
 */
async function linkLaunch(
  tx: EntityManager,
  chainId: number,
  instance: string,
  template: string,
  tokenId: string,
): Promise<string | null> {
  const [token] = await query<{ id: string }>(
    tx,
    `update tokens set instance = ?, state = 'live'
      where id = ? and chain_id = ? and template = ? and state = 'pending' and instance is null
      returning id`,
    [getAddress(instance), tokenId, chainId, template],
  );
  if (!token) return null;
  await query(tx, `update chain_launches set token_id = ? where chain_id = ? and instance = ?`, [
    token.id,
    chainId,
    instance,
  ]);
  return token.id;
}

/** A new tree position and its ancestor links, up to 10 levels (the parent's plus one). */
async function placeInTree(
  tx: EntityManager,
  chainId: number,
  event: Batch['events'][number],
): Promise<void> {
  const { args } = event;
  const ZERO = '0x0000000000000000000000000000000000000000';
  const parent = String(args.parent) === ZERO ? null : String(args.parent);
  const referrer = String(args.referrer) === ZERO ? null : String(args.referrer);
  await query(
    tx,
    `insert into dpnm_tree_nodes (chain_id, instance, address, parent, referrer, slot, active_until,
       block_number, log_index, block_hash, tx_hash, block_time)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict do nothing`,
    [
      chainId,
      event.instance,
      event.subject,
      parent,
      referrer,
      args.slot,
      args.activeUntil,
      event.blockNumber,
      event.logIndex,
      event.blockHash,
      event.txHash,
      event.blockTime,
    ],
  );
  if (!parent) return;
  await query(
    tx,
    `insert into dpnm_tree_paths (chain_id, instance, ancestor, descendant, level, block_number)
     select ?::int, ?::text, ?::text, ?::text, 1, ?::bigint
     union all
     select chain_id, instance, ancestor, ?::text, level + 1, ?::bigint
       from dpnm_tree_paths
      where chain_id = ? and instance = ? and descendant = ? and level < 10
     on conflict do nothing`,
    [
      chainId,
      event.instance,
      parent,
      event.subject,
      event.blockNumber,
      event.subject,
      event.blockNumber,
      chainId,
      event.instance,
      parent,
    ],
  );
}

/**
 * Takes back every row above `ancestor` (a reorg's common ancestor): transfers first, while
 * the launches that tell a curve's reserve are still there, so the triggers subtract exactly
 * what they added; tokens linked or graduated by the removed blocks go back to `pending` or
 * `live`; tree activity periods are recomputed from the events that remain.
 */
export async function rollbackAbove(
  tx: EntityManager,
  chainId: number,
  ancestor: number,
): Promise<void> {
  const above = [chainId, ancestor];
  await query(tx, `delete from token_transfers where chain_id = ? and block_number > ?`, above);
  // In practice only unsettled ones: a transfer is settled once final, and a reorg deeper
  // than the finality depth is what confirming it assumed would not happen.
  await query(tx, `delete from treasury_transfers where chain_id = ? and block_number > ?`, above);
  await query(
    tx,
    `update tokens t set state = 'live'
       from token_trades g
      where g.chain_id = ? and g.block_number > ? and g.kind = 'graduation'
        and t.chain_id = g.chain_id and lower(t.instance) = g.instance
        and t.state in ('graduating', 'sentient')`,
    above,
  );
  await query(tx, `delete from token_trades where chain_id = ? and block_number > ?`, above);
  await query(
    tx,
    `update dpnm_tree_nodes n set active_until = coalesce((
       select max((e.args->>'activeUntil')::bigint) from chain_events e
        where e.chain_id = n.chain_id and e.instance = n.instance and e.subject = n.address
          and e.name in ('Activated', 'TreeExtended') and e.block_number <= ?), 0)
      where (n.chain_id, n.instance, n.address) in (
        select chain_id, instance, subject from chain_events
         where chain_id = ? and block_number > ? and name = 'TreeExtended')`,
    [ancestor, ...above],
  );
  await query(tx, `delete from chain_events where chain_id = ? and block_number > ?`, above);
  await query(tx, `delete from dpnm_tree_paths where chain_id = ? and block_number > ?`, above);
  await query(tx, `delete from dpnm_tree_nodes where chain_id = ? and block_number > ?`, above);
  await query(
    tx,
    `update tokens t set instance = null, state = 'pending'
       from chain_launches l
      where l.chain_id = ? and l.block_number > ? and l.token_id = t.id`,
    above,
  );
  await query(tx, `delete from chain_launches where chain_id = ? and block_number > ?`, above);
  await query(tx, `delete from chain_blocks where chain_id = ? and number > ?`, above);
}
