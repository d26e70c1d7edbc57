import { Client } from 'pg';
import { zeroAddress, type Address, type PrivateKeyAccount } from 'viem';
import { workflowIds } from '../../shared/temporal';
import { rollbackAbove } from '../../workers/chain/store';
import { signIn, type SignedIn } from '../helpers/auth';
import { eventually } from '../helpers/chain';
import { useOwnChain } from '../helpers/launchpad';
import { compileFixture } from '../helpers/solidity';

/**
 * GET /me/tree over a large tree (docs/chain.md "User state"): 2,040 members generated on
 * chain, 11 levels deep under the root. At depth 10 the answer nests every member of the ten
 * levels, each figure equal to what the tree contract says, in the same number of SQL
 * statements as at depth 1. The per-level read models then survive a reorg's rollback: they
 * equal what the remaining rows add up to. On a chain of its own (thousands of activations).
 */

const world = useOwnChain({}, 'dpnm');
/**
 * How long the first test waits for the indexer to take in the 2,040 activations. The test
 * (that wait, then some 4,000 contract reads) takes 15-25 s on a quiet machine and passed
 * jest's 60 s on a loaded one, so it has a timeout of its own, past this wait.
 */
const INDEX_WAIT_MS = 180_000;

interface Member {
  address: Address;
  active: boolean;
  subtreeSize: number;
  directs?: (Member | null)[];
}
interface Tree {
  address: Address;
  subtreeByLevel: number[];
  directs: (Member | null)[];
  blockNumber: number;
}

let creator: PrivateKeyAccount;
let session: SignedIn;
let protocol: Address;
let tree: Address;
let instance: Address;

const seeder = compileFixture('TreeSeeder.sol', 'TreeSeeder');

async function deploySeeder(): Promise<Address> {
  const hash = await world.chain.walletOf(creator).deployContract({
    abi: seeder.abi,
    bytecode: seeder.bytecode,
    chain: null,
  });
  const receipt = await world.chain.reader.waitForTransactionReceipt({ hash });
  return receipt.contractAddress!;
}

/** Activates `count` members referred by `referrer`, 60 per transaction; returns the last. */
async function seed(at: Address, usdt: Address, referrer: Address, count: number) {
  let last: Address = zeroAddress;
  for (let done = 0; done < count; done += 60) {
    const { request, result } = await world.chain.reader.simulateContract({
      account: creator,
      address: at,
      abi: seeder.abi,
      functionName: 'seed',
      args: [protocol, usdt, referrer, BigInt(Math.min(60, count - done))],
      gas: 29_000_000n,
    });
    const hash = await world.chain.walletOf(creator).writeContract(request as never);
    const receipt = await world.chain.reader.waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success') throw new Error('seed reverted');
    last = result;
  }
  return last;
}

/** Every SQL statement the process sends while `action` runs (pg's Client carries them all). */
async function statementsDuring(action: () => Promise<unknown>): Promise<string[]> {
  const spy = jest.spyOn(Client.prototype, 'query');
  try {
    await action();
    return spy.mock.calls.map(([query]) =>
      typeof query === 'string' ? query : (query as { text: string }).text,
    );
  } finally {
    spy.mockRestore();
  }
}

function getTree(depth: number) {
  return world.app.inject({
    method: 'GET',
    url: `/me/tree?depth=${depth}`,
    headers: { cookie: session.cookie },
  });
}

/** The tree as the contract has it at `at`: every member's children, walked from `root`. */
async function contractTree(root: Address, at: bigint) {
  const children = new Map<Address, (Address | null)[]>();
  let level: Address[] = [root];
  while (level.length > 0) {
    const slots = await Promise.all(
      level.map((member) =>
        world.chain.read<Address[]>(tree, 'PhenomenalTree', 'childrenOf', [member], at),
      ),
    );
    level.forEach((member, i) =>
      children.set(
        member,
        slots[i]!.map((slot) => (slot === zeroAddress ? null : slot)),
      ),
    );
    level = slots.flat().filter((slot) => slot !== zeroAddress);
  }
  /** Members 1..10 levels below `member`. */
  const byLevel = (member: Address): number[] => {
    const counts: number[] = [];
    let row: Address[] = [member];
    for (let depth = 0; depth < 10; depth++) {
      row = row.flatMap((m) => (children.get(m) ?? []).filter((c): c is Address => c !== null));
      counts.push(row.length);
    }
    return counts;
  };
  const { timestamp } = await world.chain.reader.getBlock({ blockNumber: at });
  const members = [...children.keys()];
  const until = await Promise.all(
    members.map((member) =>
      world.chain.read<bigint>(protocol, 'DpnmProtocol', 'activeUntil', [member], at),
    ),
  );
  const activeUntil = new Map(members.map((member, i) => [member, until[i]!]));
  const nest = (member: Address, level: number, depth: number): Member => ({
    address: member,
    active: activeUntil.get(member)! > timestamp,
    subtreeSize: byLevel(member).reduce((sum, count) => sum + count, 0),
    ...(level < depth
      ? {
          directs: children
            .get(member)!
            .map((child) => (child === null ? null : nest(child, level + 1, depth))),
        }
      : {}),
  });
  return { byLevel, nest, children, size: children.size - 1 };
}

beforeAll(async () => {
  creator = await world.chain.funded();
  session = await signIn(world.app, creator);
  const usdt = await world.chain.read<Address>(world.factory, 'DpnmFactory', 'usdt');
  ({ instance, protocol, tree } = await world.pad.launchDpnm(creator, 'TREE', {
    treeActivationCost: '1',
  }));
  const at = await deploySeeder();
  // Breadth first under the root: levels 1..7 (3 + 9 + … + 729 + 908). Then 40 under the
  // deepest, down to level 11, one past what the tree reports.
  const deepest = await seed(at, usdt, creator.address, 2_000);
  await seed(at, usdt, deepest, 40);
}, 240_000);

describe('GET /me/tree over 2,040 members', () => {
  it(
    'nests ten levels, each figure as the contract has it, in as many statements as one level',
    async () => {
      const head = Number(await world.chain.reader.getBlockNumber());
      const full = await eventually(
        async () => {
          const response = await getTree(10);
          const body = response.json<Tree>();
          return response.statusCode === 200 && body.blockNumber >= head ? body : undefined;
        },
        INDEX_WAIT_MS,
        'the index to reach the seeded tree',
      );
      const at = BigInt(full.blockNumber);
      const contract = await contractTree(creator.address, at);
      expect(contract.size).toBe(2_040);
      expect(full.subtreeByLevel).toEqual(contract.byLevel(creator.address));
      expect(full.subtreeByLevel.reduce((sum, count) => sum + count, 0)).toBe(2_039);
      expect(full.directs).toEqual(contract.nest(creator.address, 0, 10).directs);

      // The same statements whatever the depth: the answer's size does not add round trips.
      // The spy sees every statement of this process, the worker's too: the indexer (caught up)
      // stops first, and the count starts once a quiet half second shows nothing else runs.
      await world.ctx.deps.temporal.workflow
        .getHandle(workflowIds.chainSync(31337, world.ctx.config.temporal.taskQueue))
        .terminate('measuring the API alone');
      await eventually(
        async () =>
          (await statementsDuring(() => new Promise((r) => setTimeout(r, 500)))).length === 0
            ? true
            : undefined,
        15_000,
        'the worker to fall quiet',
      );
      // One uncounted call first: the session is cached again (30 s) and the statement prepared.
      await getTree(1);
      const deep = await statementsDuring(() => getTree(10));
      const shallow = await statementsDuring(() => getTree(1));
      expect(deep.length).toBeGreaterThan(0);
      expect(deep.length).toBeLessThanOrEqual(2);
      expect(deep).toEqual(shallow);
    },
    INDEX_WAIT_MS + 60_000,
  );

  it('keeps its per-level read models exact through a rollback', async () => {
    const derived = () =>
      world.ctx.sql<{ mismatches: string }>(
        `select (select count(*) from (
                   select chain_id, instance, ancestor, level, count(*)::int as members
                     from dpnm_tree_paths group by 1, 2, 3, 4
                   except select chain_id, instance, address, level, members
                     from dpnm_subtree_levels where members > 0) missing)
              + (select count(*) from dpnm_tree_nodes n
                  where n.subtree_size <> (select count(*) from dpnm_tree_paths p
                                            where p.chain_id = n.chain_id
                                              and p.instance = n.instance
                                              and p.ancestor = n.address))
              + (select count(*) from dpnm_subtree_levels s
                  where s.members <> (select count(*) from dpnm_tree_paths p
                                       where p.chain_id = s.chain_id and p.instance = s.instance
                                         and p.ancestor = s.address and p.level = s.level))
           as mismatches`,
      );
    expect(await derived()).toEqual([{ mismatches: '0' }]);
    const [middle] = await world.ctx.sql<{ block: string }>(
      `select percentile_disc(0.5) within group (order by block_number)::text as block
         from dpnm_tree_nodes where instance = $1`,
      [instance.toLowerCase()],
    );
    const before = await world.ctx.sql<{ members: string }>(
      'select sum(members)::text as members from dpnm_subtree_levels',
    );
    await world.ctx.deps.orm.em
      .fork()
      .transactional((tx) => rollbackAbove(tx, 31337, Number(middle!.block)));
    expect(await derived()).toEqual([{ mismatches: '0' }]);
    const after = await world.ctx.sql<{ members: string }>(
      'select sum(members)::text as members from dpnm_subtree_levels',
    );
    expect(Number(after[0]!.members)).toBeLessThan(Number(before[0]!.members));
  });
});
