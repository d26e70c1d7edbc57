import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts';
import { signIn } from '../helpers/auth';
import { eventually } from '../helpers/chain';
import { useOwnChain } from '../helpers/launchpad';

/**
 * Token states the chain decides by itself (docs/spec/contract.md §10): a token whose launch the chain
 * has not shown within LAUNCH_TIMEOUT_HOURS of its creation is `failed`, judged by the chain's
 * own clock (anvil's time, moved forward here: the injected clock), and so is a token created
 * with an instance no configured factory launched. A launched token stays live.
 */

const world = useOwnChain({ LAUNCH_TIMEOUT_HOURS: '72' });

async function stateOf(slug: string): Promise<string> {
  return (await world.pad.get<{ state: string }>(`/tokens/${slug}`)).state;
}

/** Waits until the index has passed the chain's current head. */
async function indexedToHead(): Promise<void> {
  await world.chain.anvil.mine({ blocks: 1 });
  const head = Number(await world.chain.reader.getBlockNumber());
  await eventually(
    async () => {
      const [row] = await world.ctx.sql<{ next_block: string }>(
        'select next_block from chain_cursors where chain_id = 31337',
      );
      return row && Number(row.next_block) > head ? true : undefined;
    },
    10_000,
    `the index to pass block ${head}`,
  );
}

describe('token states decided by the chain', () => {
  it('fails an unlaunched token once the chain is LAUNCH_TIMEOUT_HOURS past its creation, and an instance no factory launched', async () => {
    const creator = await world.chain.funded();
    const never = await world.pad.createVirtuals(creator, 'NEVER', '1000');
    const launched = await world.pad.createVirtuals(creator, 'DONE', '1000');
    await world.pad.launchAndWait(creator, launched.slug, launched.pendingLaunchTx);

    const session = await signIn(world.app, creator);
    const foreign = await world.app.inject({
      method: 'POST',
      url: '/tokens',
      headers: { cookie: session.cookie },
      payload: {
        template: 'virtuals',
        name: 'Foreign instance',
        ticker: 'FRGN',
        chainId: 31337,
        params: { graduationThreshold: '1000' },
        instance: privateKeyToAccount(generatePrivateKey()).address,
      },
    });
    expect(foreign.statusCode).toBe(201);
    const foreignSlug = foreign.json<{ slug: string; state: string }>().slug;
    expect(foreign.json<{ state: string }>().state).toBe('live');

    // A block after the creations, well within the timeout.
    await world.chain.anvil.increaseTime({ seconds: 60 });
    await indexedToHead();
    expect(await stateOf(never.slug)).toBe('pending');
    expect(await stateOf(foreignSlug)).toBe('failed');

    // 71 hours on: still within the 72.
    await world.chain.anvil.increaseTime({ seconds: 71 * 3600 });
    await indexedToHead();
    expect(await stateOf(never.slug)).toBe('pending');

    // Past 72 hours of chain time since the creation.
    await world.chain.anvil.increaseTime({ seconds: 2 * 3600 });
    await indexedToHead();
    expect(await stateOf(never.slug)).toBe('failed');
    expect(await stateOf(launched.slug)).toBe('live');

    const failed = await world.pad.get<{ items: { slug: string }[] }>('/tokens?state=failed');
    expect(failed.items.map((item) => item.slug).sort()).toEqual([foreignSlug, never.slug].sort());
    const detail = await world.pad.get<{
      holdersCount: number | null;
      progressToGraduation: unknown;
    }>(`/tokens/${never.slug}`);
    expect(detail).toMatchObject({ holdersCount: null, progressToGraduation: null });

    // A launch sent after the deadline no longer revives the token.
    await world.chain.sendCalldata(
      creator,
      world.ctx.config.launchFactories[31337]!.virtuals!,
      never.pendingLaunchTx,
    );
    await indexedToHead();
    expect(await stateOf(never.slug)).toBe('failed');
  });
});
