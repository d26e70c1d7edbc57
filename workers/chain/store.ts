import { getAddress } from 'viem';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Batch } from './decode';

/**
 * Writes of the chain index (docs/chain.md "Indexer"). Everything a range adds, the state
 * changes of the tokens it concerns and the cursor past it go in the caller's one
 * transaction, so a crash leaves either all of a range or none of it. Inserts are idempotent
 * on the log's (chain, block, log index).
 */

const POSITION = `block_number bigint, log_index int, block_hash text, tx_hash text,
  block_time timestamptz`;
const POSITION_COLUMNS = 'block_number, log_index, block_hash, tx_hash, block_time';

/** snake_case JSON for `jsonb_to_recordset`, which matches record fields by column name. */
function records(rows: readonly object[]): string {
  return JSON.stringify(
    rows.map((row) =>
      Object.fromEntries(
        Object.entries(row).map(([key, value]) => [
          key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
          value,
        ]),
      ),
    ),
  );
}

async function insertRows(
  tx: EntityManager,
  table: string,
  columns: string,
  recordType: string,
  chainId: number,
  rows: readonly object[],
  conflict = 'on conflict do nothing',
): Promise<void> {
  if (rows.length === 0) return;
  await tx.execute(
    `insert into ${table} (chain_id, ${columns})
     select ?, ${columns} from jsonb_to_recordset(?::jsonb) as r(${recordType})
     order by block_number, log_index
     ${conflict}`,
    [chainId, records(rows)],
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
    `instance, template, factory, ref, creator, ${POSITION_COLUMNS}`,
    `instance text, template text, factory text, ref uuid, creator text, ${POSITION}`,
    chainId,
    batch.launches.map(({ tokenId, ...launch }) => ({ ...launch, ref: tokenId })),
  );
  for (const launch of batch.launches) {
    const linked = await linkLaunch(tx, chainId, launch.instance, launch.template, launch.tokenId);
    if (linked) changes.push({ tokenId: linked, state: 'live' });
  }
  for (const dpnm of batch.dpnmLaunches) {
    await tx.execute(
      `update chain_launches set protocol = ?, tree = ?, gwt = ?, params = ?::jsonb
        where chain_id = ? and instance = ?`,
      [dpnm.protocol, dpnm.tree, dpnm.gwt, JSON.stringify(dpnm.params), chainId, dpnm.instance],
    );
  }
  await insertRows(
    tx,
    'token_transfers',
    `instance, from_address, to_address, value, ${POSITION_COLUMNS}`,
    `instance text, from_address text, to_address text, value numeric, ${POSITION}`,
    chainId,
    batch.transfers,
  );
  await insertRows(
    tx,
    'token_trades',
    `instance, kind, trader, amount_token, amount_payment, price, reserve_token, locked_payment,
     ${POSITION_COLUMNS}`,
    `instance text, kind text, trader text, amount_token numeric, amount_payment numeric,
     price numeric, reserve_token numeric, locked_payment numeric, ${POSITION}`,
    chainId,
    batch.trades,
  );
  await insertRows(
    tx,
    'chain_events',
    `instance, emitter, name, subject, args, ${POSITION_COLUMNS}`,
    `instance text, emitter text, name text, subject text, args jsonb, ${POSITION}`,
    chainId,
    batch.events,
  );
  for (const event of batch.events) {
    if (event.name === 'Activated') await placeInTree(tx, chainId, event);
    if (event.name === 'TreeExtended') {
      await tx.execute(
        `update dpnm_tree_nodes set active_until = greatest(active_until, ?::bigint)
          where chain_id = ? and instance = ? and address = ?`,
        [event.args.activeUntil, chainId, event.instance, event.subject],
      );
    }
  }
  for (const trade of batch.trades) {
    if (trade.kind !== 'graduation') continue;
    const final = trade.blockNumber <= safeBlock;
    const rows = await tx.execute<{ id: string }[]>(
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
 * Links a launch to the token its ref names (decisions §10 "Linking"): only a `pending` token
 * of the same chain and template, and only once (a replayed launch stays unlinked).
 */
async function linkLaunch(
  tx: EntityManager,
  chainId: number,
  instance: string,
  template: string,
  tokenId: string,
): Promise<string | null> {
  const [token] = await tx.execute<{ id: string }[]>(
    `update tokens set instance = ?, state = 'live'
      where id = ? and chain_id = ? and template = ? and state = 'pending' and instance is null
      returning id`,
    [getAddress(instance), tokenId, chainId, template],
  );
  if (!token) return null;
  await tx.execute(`update chain_launches set token_id = ? where chain_id = ? and instance = ?`, [
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
  await tx.execute(
    `insert into dpnm_tree_nodes (chain_id, instance, address, parent, referrer, slot, active_until,
       ${POSITION_COLUMNS})
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
  await tx.execute(
    `insert into dpnm_tree_paths (chain_id, instance, ancestor, descendant, level, block_number)
     select ?, ?, ?, ?, 1, ?
     union all
     select chain_id, instance, ancestor, ?, level + 1, ?
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
  await tx.execute(`delete from token_transfers where chain_id = ? and block_number > ?`, above);
  await tx.execute(
    `update tokens t set state = 'live'
       from token_trades g
      where g.chain_id = ? and g.block_number > ? and g.kind = 'graduation'
        and t.chain_id = g.chain_id and lower(t.instance) = g.instance
        and t.state in ('graduating', 'sentient')`,
    above,
  );
  await tx.execute(`delete from token_trades where chain_id = ? and block_number > ?`, above);
  await tx.execute(
    `update dpnm_tree_nodes n set active_until = coalesce((
       select max((e.args->>'activeUntil')::bigint) from chain_events e
        where e.chain_id = n.chain_id and e.instance = n.instance and e.subject = n.address
          and e.name in ('Activated', 'TreeExtended') and e.block_number <= ?), 0)
      where (n.chain_id, n.instance, n.address) in (
        select chain_id, instance, subject from chain_events
         where chain_id = ? and block_number > ? and name = 'TreeExtended')`,
    [ancestor, ...above],
  );
  await tx.execute(`delete from chain_events where chain_id = ? and block_number > ?`, above);
  await tx.execute(`delete from dpnm_tree_paths where chain_id = ? and block_number > ?`, above);
  await tx.execute(`delete from dpnm_tree_nodes where chain_id = ? and block_number > ?`, above);
  await tx.execute(
    `update tokens t set instance = null, state = 'pending'
       from chain_launches l
      where l.chain_id = ? and l.block_number > ? and l.token_id = t.id`,
    above,
  );
  await tx.execute(`delete from chain_launches where chain_id = ? and block_number > ?`, above);
  await tx.execute(`delete from chain_blocks where chain_id = ? and number > ?`, above);
}
