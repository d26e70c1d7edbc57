import { getAddress, type Address, type PrivateKeyAccount } from 'viem';
import { signIn, type SignedIn } from '../helpers/auth';
import { eventually } from '../helpers/chain';
import { useOwnChain } from '../helpers/launchpad';

/**
 * `usdt_bep20` end to end (docs/spec/contract.md §11, docs/payments.md "usdt_bep20"): a checkout hands out
 * an EIP-681 URI with an amount-tagged USDT transfer, a wallet sends exactly that to the
 * treasury on anvil, and the chain indexer (the `chain-sync` workflow on a real worker)
 * confirms the payment only once the transfer's block is 3 blocks deep; the subscription
 * lifecycle workflow then activates the tier. On a chain of the test's own: the test counts
 * blocks and rewrites history, which the shared chain's other users would disturb.
 */

const DEPTH = 3;
const world = useOwnChain({ CHAIN_FINALITY_DEPTH: `31337=${DEPTH}` });

const URI =
  /^ethereum:(0x[0-9a-fA-F]{40})@31337\/transfer\?address=(0x[0-9a-fA-F]{40})&uint256=(\d+)$/;

interface Invoice {
  token: Address;
  treasury: Address;
  units: bigint;
}

function invoiceOf(checkoutUrl: string): Invoice {
  const match = URI.exec(checkoutUrl);
  if (!match) throw new Error(`not an EIP-681 transfer URI: ${checkoutUrl}`);
  return { token: match[1] as Address, treasury: match[2] as Address, units: BigInt(match[3]!) };
}

async function post(user: SignedIn, url: string, payload: Record<string, unknown>) {
  return world.app.inject({ method: 'POST', url, headers: { cookie: user.cookie }, payload });
}

async function get<T>(user: SignedIn, url: string): Promise<T> {
  const response = await world.app.inject({ method: 'GET', url, headers: { cookie: user.cookie } });
  expect(response.statusCode).toBe(200);
  return response.json<T>();
}

async function subscriptionOf(user: SignedIn) {
  return get<{ tier: string | null; status: string; provider: string | null }>(
    user,
    '/me/subscription',
  );
}

/** A user's subscription checkout through usdt_bep20: the payment id and the invoice. */
async function checkout(user: SignedIn, tier: string) {
  const response = await post(user, '/subscriptions/checkout', { tier, provider: 'usdt_bep20' });
  expect(response.statusCode).toBe(201);
  const body = response.json<{ subscriptionId: string; provider: string; checkoutUrl: string }>();
  expect(body.provider).toBe('usdt_bep20');
  return { paymentId: body.subscriptionId, invoice: invoiceOf(body.checkoutUrl) };
}

/** A funded wallet that mints `units` test USDT and sends them to the treasury. */
async function pay(invoice: Invoice, units: bigint, payer?: PrivateKeyAccount) {
  const wallet = payer ?? (await world.chain.funded());
  await world.chain.send(wallet, invoice.token, 'TestToken', 'mint', [wallet.address, units]);
  return world.chain.send(wallet, invoice.token, 'TestToken', 'transfer', [
    invoice.treasury,
    units,
  ]);
}

async function transferRow(txHash: string) {
  const [row] = await world.ctx.sql<{
    outcome: string | null;
    payment_id: string | null;
    value: string;
    signal_due: boolean;
    log_index: number;
  }>(
    `select outcome, payment_id, value::text, signal_due, log_index
       from treasury_transfers where tx_hash = $1`,
    [txHash],
  );
  return row;
}

async function paymentRow(paymentId: string) {
  const [row] = await world.ctx.sql<{
    status: string;
    provider_payment_id: string | null;
    applied_at: Date | null;
  }>('select status, provider_payment_id, applied_at from payments where id = $1', [paymentId]);
  return row!;
}

async function outbox(userId: number, event: string) {
  return world.ctx.sql<{ data: Record<string, unknown> }>(
    'select data from outbox_events where user_id = $1 and event = $2',
    [userId, event],
  );
}

/** Waits until the indexer has committed every block up to the chain's current head. */
async function indexedToHead(): Promise<bigint> {
  const head = await world.chain.reader.getBlockNumber();
  await eventually(
    async () => {
      const [cursor] = await world.ctx.sql<{ next_block: string }>(
        'select next_block from chain_cursors where chain_id = 31337',
      );
      return cursor && BigInt(cursor.next_block) > head ? true : undefined;
    },
    15_000,
    `the index to reach block ${head}`,
  );
  return head;
}

/**
 * Asserts `holds` stays true for `ms`: long enough for the passes after the cursor moved to
 * settle (they poll every 100 ms) and for a signalled workflow to apply the payment.
 */
async function stillHolds(holds: () => Promise<boolean>, ms = 1_500) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    expect(await holds()).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function mine(blocks: number) {
  await world.chain.anvil.mine({ blocks });
  return indexedToHead();
}

describe('usdt_bep20 checkout', () => {
  it('hands out an EIP-681 transfer of the tier price, tagged below the cent, to the treasury', async () => {
    const user = await signIn(world.app);
    const { paymentId, invoice } = await checkout(user, 'plus');
    const usdt = world.ctx.config.payments.usdtBep20!;
    expect(getAddress(invoice.token)).toBe(getAddress(usdt.token));
    expect(getAddress(invoice.treasury)).toBe(getAddress(usdt.treasury));
    // plus is 20.00 USD: 20 × 10^18 plus a tag of 1..9999 × 10^12.
    const tag = invoice.units - 20n * 10n ** 18n;
    expect(tag % 10n ** 12n).toBe(0n);
    expect(tag / 10n ** 12n).toBeGreaterThanOrEqual(1n);
    expect(tag / 10n ** 12n).toBeLessThanOrEqual(9_999n);
    const [row] = await world.ctx.sql<{ amount_units: string; chain_id: number; status: string }>(
      'select amount_units::text, chain_id, status from payments where id = $1',
      [paymentId],
    );
    expect(row).toEqual({
      amount_units: invoice.units.toString(),
      chain_id: 31337,
      status: 'pending',
    });
  });
});

describe('a transfer of the exact amount', () => {
  it(`activates the subscription only once its block is ${DEPTH} deep, and records payment.received once`, async () => {
    const user = await signIn(world.app);
    const { paymentId, invoice } = await checkout(user, 'plus');
    const receipt = await pay(invoice, invoice.units);

    // Seen by the indexer at once, but not final: recorded, nothing confirmed.
    await indexedToHead();
    expect(await transferRow(receipt.transactionHash)).toMatchObject({
      outcome: null,
      value: invoice.units.toString(),
    });
    await mine(DEPTH - 1);
    await stillHolds(async () => {
      const [subscription, payment] = await Promise.all([
        subscriptionOf(user),
        paymentRow(paymentId),
      ]);
      return subscription.status === 'none' && payment.status === 'pending';
    });
    expect((await transferRow(receipt.transactionHash))?.outcome).toBeNull();
    expect(await outbox(user.userId, 'payment.received')).toEqual([]);

    // One more block makes it final.
    await mine(1);
    const active = await eventually(
      async () => {
        const subscription = await subscriptionOf(user);
        return subscription.status === 'active' ? subscription : undefined;
      },
      20_000,
      'the subscription to be active',
    );
    expect(active).toMatchObject({ tier: 'plus', status: 'active', provider: 'usdt_bep20' });
    const transfer = await transferRow(receipt.transactionHash);
    expect(transfer).toMatchObject({ outcome: 'confirmed', payment_id: paymentId });
    expect(await paymentRow(paymentId)).toMatchObject({
      status: 'paid',
      provider_payment_id: `${receipt.transactionHash}:${transfer!.log_index}`,
      applied_at: expect.any(Date),
    });
    expect(await outbox(user.userId, 'payment.received')).toEqual([
      {
        data: expect.objectContaining({
          payment_id: paymentId,
          provider: 'usdt_bep20',
          purpose: 'subscription',
          amount_usd: 20,
        }),
      },
    ]);
    // Later passes settle nothing twice, and the signal owed was sent once.
    await mine(2);
    await eventually(
      async () => ((await transferRow(receipt.transactionHash))?.signal_due ? undefined : true),
      10_000,
      'the lifecycle signal to be sent',
    );
    expect(await outbox(user.userId, 'payment.received')).toHaveLength(1);
    expect(await outbox(user.userId, 'subscription.granted')).toHaveLength(1);
  });
});

describe('a transfer of another amount', () => {
  it('one unit off confirms nothing, is kept as unmatched, and the invoice stays payable', async () => {
    const user = await signIn(world.app);
    const { paymentId, invoice } = await checkout(user, 'plus');
    const payer = await world.chain.funded();
    const wrong = await pay(invoice, invoice.units - 1n, payer);
    await mine(DEPTH + 1);
    const settled = await eventually(
      async () => {
        const row = await transferRow(wrong.transactionHash);
        return row?.outcome ? row : undefined;
      },
      10_000,
      'the wrong transfer to be settled',
    );
    expect(settled).toMatchObject({
      outcome: 'unmatched',
      payment_id: null,
      value: (invoice.units - 1n).toString(),
    });
    await stillHolds(async () => (await subscriptionOf(user)).status === 'none');
    expect(await paymentRow(paymentId)).toMatchObject({ status: 'pending', applied_at: null });
    expect(await outbox(user.userId, 'payment.received')).toEqual([]);
    expect(
      world.ctx.logs.some(
        (line) =>
          line.msg === 'usdt_bep20: a transfer to the treasury matches no invoice' &&
          line.txHash === wrong.transactionHash,
      ),
    ).toBe(true);

    // The same payer sends the exact amount: the invoice was not spent by the wrong one.
    await pay(invoice, invoice.units, payer);
    await mine(DEPTH);
    await eventually(
      async () => ((await subscriptionOf(user)).status === 'active' ? true : undefined),
      20_000,
      'the subscription to be active',
    );
  });
});

describe('a transfer orphaned by a reorganisation', () => {
  it('is taken back before it is final and confirms nothing', async () => {
    const user = await signIn(world.app);
    const { paymentId, invoice } = await checkout(user, 'plus');
    const fork = await world.chain.anvil.snapshot();
    const orphaned = await pay(invoice, invoice.units);
    await indexedToHead();
    expect((await transferRow(orphaned.transactionHash))?.outcome).toBeNull();

    // The other branch has no such transfer and grows past the finality depth.
    await world.chain.anvil.revert({ id: fork });
    await mine(DEPTH + 3);
    await eventually(
      async () => ((await transferRow(orphaned.transactionHash)) ? undefined : true),
      10_000,
      'the orphaned transfer to be rolled back',
    );
    await stillHolds(async () => (await paymentRow(paymentId)).status === 'pending');
    expect((await subscriptionOf(user)).status).toBe('none');
    expect(await outbox(user.userId, 'payment.received')).toEqual([]);
  });
});

describe('a FLOW top-up through usdt_bep20', () => {
  it('credits the FLOW once the transfer is final', async () => {
    const user = await signIn(world.app);
    const response = await post(user, '/flow/topups', { provider: 'usdt_bep20', amountUsd: 7.5 });
    expect(response.statusCode).toBe(201);
    const topup = response.json<{ topupId: string; checkoutUrl: string; amountFlow: number }>();
    expect(topup.amountFlow).toBe(7.5);
    const invoice = invoiceOf(topup.checkoutUrl);
    expect(invoice.units / 10n ** 16n).toBe(750n);
    await pay(invoice, invoice.units);
    await mine(DEPTH - 1);
    await stillHolds(
      async () => (await get<{ balance: number }>(user, '/me/flow-balance')).balance === 0,
    );

    await mine(1);
    const balance = await eventually(
      async () => {
        const read = await get<{ balance: number; breakdown: { topUp: number } }>(
          user,
          '/me/flow-balance',
        );
        return read.balance > 0 ? read : undefined;
      },
      10_000,
      'the top-up to be credited',
    );
    expect(balance).toMatchObject({ balance: 7.5, breakdown: { topUp: 7.5 } });
    expect(await outbox(user.userId, 'payment.received')).toEqual([
      {
        data: expect.objectContaining({
          payment_id: topup.topupId,
          provider: 'usdt_bep20',
          purpose: 'topup',
          amount_usd: 7.5,
          amount_flow: 7.5,
        }),
      },
    ]);
    expect(await paymentRow(topup.topupId)).toMatchObject({ status: 'paid' });
  });
});
