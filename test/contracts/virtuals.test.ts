import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  decodeEventLog,
  http,
  parseEther,
  type Abi,
  type Address,
  type Hex,
  type PrivateKeyAccount,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import {
  abiJson,
  compileContracts,
  CONTRACTS_DIR,
  type CompiledContract,
} from '../../scripts/contracts';
import { deployReferenceContracts, referenceAddresses } from '../../scripts/chain-deployment';
import { launchCalldata, refOf } from '../../shared/chain/launchpad';
import { loadConfig } from '../../shared/config';
import { readTestServices } from '../helpers/services';

/**
 * The `virtuals` reference contracts on a real EVM (anvil): launch, buy, sell, slippage,
 * deadline, graduation and refusal after it, every revert reason and event; and the committed
 * ABIs are what the sources compile to.
 */

const rpc = http(readTestServices().anvilUrl);
const chain = createPublicClient({ chain: foundry, transport: rpc });
const anvil = createTestClient({ chain: foundry, mode: 'anvil', transport: rpc });

let compiled: Record<string, CompiledContract>;
let payment: Address;
let factory: Address;
const THRESHOLD = parseEther('1000');

async function funded(): Promise<PrivateKeyAccount> {
  const account = privateKeyToAccount(generatePrivateKey());
  await anvil.setBalance({ address: account.address, value: parseEther('100') });
  return account;
}

function walletOf(account: PrivateKeyAccount) {
  return createWalletClient({ account, chain: foundry, transport: rpc });
}

async function deploy(account: PrivateKeyAccount, name: string, args: unknown[]): Promise<Address> {
  const { abi, bytecode } = compiled[name]!;
  const hash = await walletOf(account).deployContract({ abi, bytecode, args });
  return (await chain.waitForTransactionReceipt({ hash })).contractAddress!;
}

/** Sends a call and returns its decoded logs (those of `abis`). */
async function send(
  account: PrivateKeyAccount,
  address: Address,
  name: string,
  functionName: string,
  args: unknown[],
) {
  const { abi } = compiled[name]!;
  const { request } = await chain.simulateContract({ account, address, abi, functionName, args });
  const hash = await walletOf(account).writeContract(request);
  const receipt = await chain.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe('success');
  return receipt.logs.flatMap((log) => {
    for (const abi of [compiled.VirtualsFactory!.abi, compiled.TestToken!.abi] as Abi[]) {
      try {
        return [
          { address: log.address, ...decodeEventLog({ abi, data: log.data, topics: log.topics }) },
        ];
      } catch {
        // another contract's event
      }
    }
    return [];
  });
}

/** The revert reason of a call that must fail. */
async function revertOf(
  account: PrivateKeyAccount,
  address: Address,
  name: string,
  functionName: string,
  args: unknown[],
) {
  const { abi } = compiled[name]!;
  const error = await chain.simulateContract({ account, address, abi, functionName, args }).then(
    () => null,
    (e: Error & { shortMessage?: string }) => e,
  );
  expect(error).not.toBeNull();
  return /reverted with the following reason:\s*(.+)/.exec(error!.message)?.[1]?.trim();
}

function read<T>(
  address: Address,
  name: string,
  functionName: string,
  args: unknown[] = [],
): Promise<T> {
  return chain.readContract({
    address,
    abi: compiled[name]!.abi,
    functionName,
    args,
  }) as Promise<T>;
}

/** `curves(token)`: reserveToken, lockedPayment, virtualPayment, threshold, graduated, creator. */
function curveOf(token: Address) {
  return read<readonly [bigint, bigint, bigint, bigint, boolean, Address]>(
    factory,
    'VirtualsFactory',
    'curves',
    [token],
  );
}

async function deadline(): Promise<bigint> {
  return (await chain.getBlock()).timestamp + 600n;
}

async function trader(amount = parseEther('10000')): Promise<PrivateKeyAccount> {
  const account = await funded();
  await send(account, payment, 'TestToken', 'mint', [account.address, amount]);
  await send(account, payment, 'TestToken', 'approve', [factory, 2n ** 256n - 1n]);
  return account;
}

async function launch(
  creator: PrivateKeyAccount,
  initialBuy = 0n,
): Promise<{ token: Address; logs: Awaited<ReturnType<typeof send>> }> {
  const ref = refOf(crypto.randomUUID());
  const logs = await send(creator, factory, 'VirtualsFactory', 'launch', [
    ref,
    'Nova',
    'NOVA',
    THRESHOLD,
    initialBuy,
  ]);
  const launched = logs.find((log) => log.eventName === 'Launched')!;
  expect((launched.args as unknown as { ref: Hex }).ref).toBe(ref);
  return { token: (launched.args as unknown as { instance: Address }).instance, logs };
}

beforeAll(async () => {
  compiled = compileContracts();
  const deployer = await funded();
  payment = await deploy(deployer, 'TestToken', ['Test Virtual', 'tVIRTUAL']);
  factory = await deploy(deployer, 'VirtualsFactory', [payment]);
});

describe('reference contracts', () => {
  it('commit the ABIs their sources compile to (npm run contracts:build)', () => {
    for (const [name, { abi }] of Object.entries(compiled)) {
      const committed = readFileSync(join(CONTRACTS_DIR, 'abi', `${name}.json`), 'utf8');
      expect({ name, fresh: committed === abiJson(abi) }).toEqual({ name, fresh: true });
    }
  });
});

describe('VirtualsFactory', () => {
  it('launches a token: the whole supply on the curve, Launched with the ref and the creator', async () => {
    const creator = await funded();
    const { token, logs } = await launch(creator);
    expect(logs.map((log) => log.eventName)).toEqual(['Transfer', 'Launched', 'CurveCreated']);
    expect(logs[1]!.args).toMatchObject({ instance: token, creator: creator.address });
    const supply = await read<bigint>(factory, 'VirtualsFactory', 'SUPPLY');
    expect(await read<bigint>(token, 'VirtualsToken', 'balanceOf', [factory])).toBe(supply);
    const curve = await curveOf(token);
    expect(curve).toEqual([supply, 0n, THRESHOLD, THRESHOLD, false, creator.address]);
    expect(await read<string>(token, 'VirtualsToken', 'symbol')).toBe('NOVA');
  });

  it("executes the service's pendingLaunchTx calldata as sent by a wallet", async () => {
    const creator = await trader();
    const tokenId = crypto.randomUUID();
    const data = launchCalldata('virtuals', tokenId, 'Wallet Launch', 'WLT', {
      graduationThreshold: '1000',
      initialBuy: '5',
    });
    const hash = await walletOf(creator).sendTransaction({ to: factory, data });
    const receipt = await chain.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    const launched = receipt.logs
      .filter((log) => log.address.toLowerCase() === factory.toLowerCase())
      .map((log) => decodeEventLog({ abi: compiled.VirtualsFactory!.abi, ...log }))
      .find((event) => event.eventName === 'Launched')!;
    expect(launched.args).toMatchObject({ ref: refOf(tokenId), creator: creator.address });
    const instance = (launched.args as unknown as { instance: Address }).instance;
    const curve = await curveOf(instance);
    expect(curve.slice(1, 4)).toEqual([parseEther('5'), THRESHOLD, THRESHOLD]);
  });

  it('refuses a zero graduation threshold, zero amounts and unknown tokens', async () => {
    const creator = await trader();
    const ref = refOf(crypto.randomUUID());
    expect(
      await revertOf(creator, factory, 'VirtualsFactory', 'launch', [ref, 'X', 'X', 0n, 0n]),
    ).toBe('graduationThreshold');
    const { token } = await launch(creator);
    expect(
      await revertOf(creator, factory, 'VirtualsFactory', 'buy', [token, 0n, 0n, await deadline()]),
    ).toBe('amount');
    expect(
      await revertOf(creator, factory, 'VirtualsFactory', 'sell', [
        token,
        0n,
        0n,
        await deadline(),
      ]),
    ).toBe('amount');
    expect(
      await revertOf(creator, factory, 'VirtualsFactory', 'buy', [
        payment,
        1n,
        0n,
        await deadline(),
      ]),
    ).toBe('unknown token');
  });

  it('buys along the curve with slippage and deadline, emitting Trade and Transfers', async () => {
    const creator = await funded();
    const { token } = await launch(creator);
    const alice = await trader();
    const quote = await read<bigint>(factory, 'VirtualsFactory', 'quoteBuy', [
      token,
      parseEther('100'),
    ]);
    expect(
      await revertOf(alice, factory, 'VirtualsFactory', 'buy', [
        token,
        parseEther('100'),
        quote + 1n,
        await deadline(),
      ]),
    ).toBe('slippage');
    const past = (await chain.getBlock()).timestamp - 1n;
    expect(
      await revertOf(alice, factory, 'VirtualsFactory', 'buy', [
        token,
        parseEther('100'),
        0n,
        past,
      ]),
    ).toBe('deadline');

    const logs = await send(alice, factory, 'VirtualsFactory', 'buy', [
      token,
      parseEther('100'),
      quote,
      await deadline(),
    ]);
    expect(logs.map((log) => log.eventName)).toEqual(['Transfer', 'Transfer', 'Trade']);
    const supply = await read<bigint>(factory, 'VirtualsFactory', 'SUPPLY');
    expect(logs[2]!.args).toEqual({
      token,
      trader: alice.address,
      isBuy: true,
      amountPayment: parseEther('100'),
      amountToken: quote,
      reserveToken: supply - quote,
      lockedPayment: parseEther('100'),
    });
    expect(await read<bigint>(token, 'VirtualsToken', 'balanceOf', [alice.address])).toBe(quote);
    // Constant product over the virtual reserve: reserveToken × (locked + virtual) holds.
    expect((supply - quote) * (parseEther('100') + THRESHOLD)).toBeGreaterThanOrEqual(
      supply * THRESHOLD,
    );
    // The price rises: the same payment buys fewer tokens now.
    expect(
      await read<bigint>(factory, 'VirtualsFactory', 'quoteBuy', [token, parseEther('100')]),
    ).toBeLessThan(quote);
  });

  it('sells back along the curve: all of a buy returns at most what it paid', async () => {
    const creator = await funded();
    const { token } = await launch(creator);
    const bob = await trader();
    const logs = await send(bob, factory, 'VirtualsFactory', 'buy', [
      token,
      parseEther('250'),
      0n,
      await deadline(),
    ]);
    const bought = (logs[2]!.args as unknown as { amountToken: bigint }).amountToken;
    await send(bob, token, 'VirtualsToken', 'approve', [factory, bought]);
    const quote = await read<bigint>(factory, 'VirtualsFactory', 'quoteSell', [token, bought]);
    expect(
      await revertOf(bob, factory, 'VirtualsFactory', 'sell', [
        token,
        bought,
        quote + 1n,
        await deadline(),
      ]),
    ).toBe('slippage');
    const sold = await send(bob, factory, 'VirtualsFactory', 'sell', [
      token,
      bought,
      quote,
      await deadline(),
    ]);
    const trade = sold.find((log) => log.eventName === 'Trade')!.args as unknown as {
      isBuy: boolean;
      amountPayment: bigint;
      lockedPayment: bigint;
    };
    expect(trade.isBuy).toBe(false);
    expect(trade.amountPayment).toBe(quote);
    expect(quote).toBeLessThanOrEqual(parseEther('250'));
    expect(parseEther('250') - quote).toBeLessThan(10n); // rounding only, in wei
    expect(trade.lockedPayment).toBe(parseEther('250') - quote);
  });

  it('graduates when the locked payment reaches the threshold, then refuses trades', async () => {
    const creator = await trader();
    const { token, logs } = await launch(creator, parseEther('10'));
    // The creator's initial buy happens in the launch transaction itself.
    expect(logs.map((log) => log.eventName)).toContain('Trade');
    const whale = await trader(parseEther('5000'));
    const bought = await send(whale, factory, 'VirtualsFactory', 'buy', [
      token,
      THRESHOLD,
      0n,
      await deadline(),
    ]);
    const graduated = bought.find((log) => log.eventName === 'Graduated')!;
    expect(graduated.args).toMatchObject({ token, lockedPayment: THRESHOLD + parseEther('10') });
    const curve = await curveOf(token);
    expect(curve[4]).toBe(true);
    expect(
      await revertOf(whale, factory, 'VirtualsFactory', 'buy', [
        token,
        parseEther('1'),
        0n,
        await deadline(),
      ]),
    ).toBe('graduated');
    await send(whale, token, 'VirtualsToken', 'approve', [factory, 1n]);
    expect(
      await revertOf(whale, factory, 'VirtualsFactory', 'sell', [token, 1n, 0n, await deadline()]),
    ).toBe('graduated');
  });
});

describe('npm run chain:deploy', () => {
  it('puts the contracts at their CREATE2 addresses, once, where the config defaults point', async () => {
    const payer = await funded();
    const first = await deployReferenceContracts(readTestServices().anvilUrl, payer);
    const again = await deployReferenceContracts(readTestServices().anvilUrl, payer);
    const expected = referenceAddresses(compiled);
    expect(first.map(({ address }) => address)).toEqual([
      expected.usdt,
      expected.virtualPayment,
      expected.virtualsFactory,
      expected.dpnmFactory,
    ]);
    // The second run finds every contract in place and sends nothing.
    expect(again.map(({ created }) => created)).toEqual([false, false, false, false]);
    expect(await chain.getTransactionCount({ address: payer.address })).toBeLessThanOrEqual(4);
    // The local chain's default factories (LAUNCH_FACTORIES) are the deployed ones.
    const config = loadConfig({ NODE_ENV: 'test' });
    expect(config.launchFactories[31337]?.virtuals).toBe(expected.virtualsFactory);
    expect(config.launchFactories[31337]?.dpnm).toBe(expected.dpnmFactory);
    expect(await read<Address>(expected.virtualsFactory, 'VirtualsFactory', 'paymentToken')).toBe(
      expected.virtualPayment,
    );
    expect(await read<Address>(expected.dpnmFactory, 'DpnmFactory', 'usdt')).toBe(expected.usdt);
  });
});
