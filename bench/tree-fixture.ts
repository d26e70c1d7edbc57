import { randomUUID } from 'node:crypto';
import { Client as PgClient } from 'pg';

/**
 * A chain-31337 FLOW token (a dpnm launch linked to a token) whose tree holds `members`
 * positions under the wallet of `rootUserId`, written straight into the index tables as the
 * indexer would have (docs/chain.md "User state"): breadth first, 3 wide, ancestor links up to
 * 10 levels. The triggers fill the per-level read models. For `GET /me/tree` benchmarks.
 */

const CHAIN_ID = 31337;
const BATCH = 5_000;

const address = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;
const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

export async function seedTree(
  databaseUrl: string,
  rootUserId: number,
  members: number,
): Promise<void> {
  const pg = new PgClient({ connectionString: databaseUrl });
  await pg.connect();
  try {
    const { rows } = await pg.query<{ address: string }>(
      'select address from users where id = $1',
      [rootUserId],
    );
    const root = rows[0]!.address;
    const tokenId = randomUUID();
    const instance = address(0xf10);
    const activeUntil = Math.floor(Date.now() / 1000) + 30 * 86_400;
    await pg.query('begin');
    await pg.query(
      `insert into tokens (id, owner_id, slug, name, ticker, template, chain_id, instance,
                           params, state, created_at)
       values ($1, $2, 'bench-flow', 'Bench Flow', 'BFLOW', 'dpnm', $3, $4, '{}', 'live', now())`,
      [tokenId, rootUserId, CHAIN_ID, instance],
    );
    await pg.query(
      `insert into chain_launches (chain_id, instance, template, factory, ref, creator, token_id,
         protocol, tree, gwt, params, block_number, log_index, block_hash, tx_hash, block_time)
       values ($1, $2, 'dpnm', $3, $4, $5, $4, $6, $7, $8, $9, 1, 0, $10, $10, now())`,
      [
        CHAIN_ID,
        instance,
        address(0xfac),
        tokenId,
        root,
        address(0xf11),
        address(0xf12),
        address(0xf13),
        JSON.stringify({ initialPrice: '1000000000000000000', dailyLimitFloor: '0' }),
        hash(1),
      ],
    );
    await pg.query(
      `insert into chain_cursors (chain_id, next_block, head_time, updated_at)
       values ($1, $2, now(), now())`,
      [CHAIN_ID, members + 2],
    );
    // Position 0 is the root; position i > 0 sits in slot (i - 1) % 3 of position (i - 1) / 3.
    const addressOf = (i: number) => (i === 0 ? root : address(0x100000 + i));
    const parentOf = (i: number) => Math.floor((i - 1) / 3);
    for (let from = 0; from <= members; from += BATCH) {
      const nodes = [];
      const paths = [];
      for (let i = from; i <= Math.min(members, from + BATCH - 1); i++) {
        nodes.push({
          address: addressOf(i),
          parent: i === 0 ? null : addressOf(parentOf(i)),
          slot: i === 0 ? 0 : (i - 1) % 3,
          block: i + 1,
        });
        for (let up = i, level = 1; up > 0 && level <= 10; level++) {
          up = parentOf(up);
          paths.push({ ancestor: addressOf(up), descendant: addressOf(i), level, block: i + 1 });
        }
      }
      await pg.query(
        `insert into dpnm_tree_nodes (chain_id, instance, address, parent, referrer, slot,
           active_until, block_number, log_index, block_hash, tx_hash, block_time)
         select $1, $2, address, parent, parent, slot, $3, block, 0, $4, $4, now()
           from jsonb_to_recordset($5::jsonb)
             as r(address text, parent text, slot smallint, block bigint)`,
        [CHAIN_ID, instance, activeUntil, hash(2), JSON.stringify(nodes)],
      );
      await pg.query(
        `insert into dpnm_tree_paths (chain_id, instance, ancestor, descendant, level, block_number)
         select $1, $2, ancestor, descendant, level, block
           from jsonb_to_recordset($3::jsonb)
             as r(ancestor text, descendant text, level smallint, block bigint)`,
        [CHAIN_ID, instance, JSON.stringify(paths)],
      );
    }
    await pg.query('commit');
    await pg.query('analyze dpnm_tree_nodes, dpnm_tree_paths, dpnm_subtree_levels');
  } catch (error) {
    await pg.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    await pg.end();
  }
}
