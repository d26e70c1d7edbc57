import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  http,
  parseEther,
  type Abi,
  type Address,
  type Hex,
  type PrivateKeyAccount,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { startLocalChain } from '../../scripts/anvil';
import { ANVIL_ACCOUNT_0_KEY, deployReferenceContracts } from '../../scripts/chain-deployment';
import { CONTRACTS_DIR } from '../../scripts/contracts';
import { freePort } from './services';

/**
 * A test's hands on a real local chain (anvil): funded accounts, sending and reading the
 * reference contracts through their committed ABIs (contracts/abi), and anvil's own controls
 * (mining, time, snapshots, reorgs).
 */

export function abiOf(contract: string): Abi {
  return JSON.parse(readFileSync(join(CONTRACTS_DIR, 'abi', `${contract}.json`), 'utf8')) as Abi;
}

export type LocalChain = ReturnType<typeof localChain>;

export function localChain(url: string) {
  const transport = http(url);
  // Anvil mines at once: poll receipts every 50 ms, not viem's default 4 s.
  const reader = createPublicClient({
    chain: foundry,
    transport,
    pollingInterval: 50,
    cacheTime: 0,
  });
  const anvil = createTestClient({ chain: foundry, mode: 'anvil', transport });
  const walletOf = (account: PrivateKeyAccount) =>
    createWalletClient({ account, chain: foundry, transport, pollingInterval: 50 });

  /** Sends a contract call and waits for its receipt (which must succeed). */
  async function send(
    account: PrivateKeyAccount,
    address: Address,
    contract: string,
    functionName: string,
    args: unknown[],
  ) {
    const abi = abiOf(contract);
    const { request } = await reader.simulateContract({
      account,
      address,
      abi,
      functionName,
      args,
    });
    const hash = await walletOf(account).writeContract(request);
    const receipt = await reader.waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success') throw new Error(`${functionName} reverted (${hash})`);
    return receipt;
  }

  return {
    url,
    reader,
    anvil,
    walletOf,
    send,
    /** A fresh account with 100 ETH for gas. */
    async funded(): Promise<PrivateKeyAccount> {
      const account = privateKeyToAccount(generatePrivateKey());
      await anvil.setBalance({ address: account.address, value: parseEther('100') });
      return account;
    },
    /** Sends raw calldata (the service's `pendingLaunchTx`). */
    async sendCalldata(account: PrivateKeyAccount, to: Address, data: Hex) {
      const hash = await walletOf(account).sendTransaction({ to, data, chain: foundry });
      const receipt = await reader.waitForTransactionReceipt({ hash });
      if (receipt.status !== 'success') throw new Error(`calldata to ${to} reverted (${hash})`);
      return receipt;
    },
    read<T>(
      address: Address,
      contract: string,
      functionName: string,
      args: unknown[] = [],
      blockNumber?: bigint,
    ): Promise<T> {
      return reader.readContract({
        address,
        abi: abiOf(contract),
        functionName,
        args,
        ...(blockNumber === undefined ? {} : { blockNumber }),
      }) as Promise<T>;
    },
    /** The revert reason of a call that must fail. */
    async revertOf(
      account: PrivateKeyAccount,
      address: Address,
      contract: string,
      functionName: string,
      args: unknown[],
    ): Promise<string | undefined> {
      const error = await reader
        .simulateContract({ account, address, abi: abiOf(contract), functionName, args })
        .then(
          () => null,
          (e: Error) => e,
        );
      if (!error) throw new Error(`${functionName} did not revert`);
      return /reverted with the following reason:\s*(.+)/.exec(error.message)?.[1]?.trim();
    },
    async deadline(): Promise<bigint> {
      return (await reader.getBlock()).timestamp + 3600n;
    },
  };
}

/** Polls `probe` until it returns a value other than undefined, or fails after `timeoutMs`. */
export async function eventually<T>(
  probe: () => Promise<T | undefined>,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A chain of the test's own (anvil on a free port, reference contracts deployed), for tests
 * that rewrite history (snapshots, reverts) or need a quiet chain to measure.
 */
export async function startTestChain(): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'svc-chain-'));
  const running = await startLocalChain({ port, stateFile: join(dir, 'state.json') });
  await deployReferenceContracts(running.url, privateKeyToAccount(ANVIL_ACCOUNT_0_KEY));
  return {
    url: running.url,
    stop: async () => {
      await running.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
