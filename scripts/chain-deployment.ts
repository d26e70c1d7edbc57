import {
  concat,
  createPublicClient,
  createWalletClient,
  encodeDeployData,
  getContractAddress,
  http,
  keccak256,
  toHex,
  type Address,
  type Hex,
  type PrivateKeyAccount,
} from 'viem';
import { compileContracts, type CompiledContract } from './contracts';

/**
 * The reference contracts at deterministic addresses (docs/chain.md "Deployment"): each is
 * created through the CREATE2 deployer every EVM dev chain carries (anvil predeploys it at
 * 0x4e59…956c), from a fixed salt, so its address depends only on its bytecode and constructor
 * arguments, never on who deployed what before. Deploying twice finds the code there and
 * sends nothing: the deployment is idempotent.
 */

export const CREATE2_DEPLOYER: Address = '0x4e59b44847b379578588920ca78fbf26c0b4956c';

/** Anvil's well-known development account #0: pays for deployments on the local chain. */
export const ANVIL_ACCOUNT_0_KEY: Hex =
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';

interface Planned {
  name: string;
  contract: string;
  args: unknown[];
}

export interface Deployed {
  name: string;
  address: Address;
  /** False when the code was already there. */
  created: boolean;
}

function saltOf(name: string): Hex {
  return keccak256(toHex(`agent-platform/${name}/v1`));
}

function initCode(compiled: CompiledContract, args: unknown[]): Hex {
  return encodeDeployData({ abi: compiled.abi, bytecode: compiled.bytecode, args });
}

function addressOf(compiled: CompiledContract, plan: Planned): Address {
  return getContractAddress({
    opcode: 'CREATE2',
    from: CREATE2_DEPLOYER,
    salt: saltOf(plan.name),
    bytecode: initCode(compiled, plan.args),
  });
}

export type ReferenceContract = 'usdt' | 'virtualPayment' | 'virtualsFactory' | 'dpnmFactory';

/** The plan, in order: later contracts take earlier addresses as constructor arguments. */
export function referenceAddresses(
  compiled = compileContracts(),
): Record<ReferenceContract, Address> {
  return resolve(compiled).addresses;
}

function resolve(compiled: Record<string, CompiledContract>) {
  const plans: Planned[] = [];
  const addresses = {} as Record<ReferenceContract, Address>;
  const add = (key: keyof typeof addresses, plan: Planned) => {
    plans.push(plan);
    addresses[key] = addressOf(compiled[plan.contract]!, plan);
  };
  add('usdt', { name: 'usdt', contract: 'TestToken', args: ['Test USDT', 'USDT'] });
  add('virtualPayment', {
    name: 'virtual-payment',
    contract: 'TestToken',
    args: ['Test Virtual', 'tVIRTUAL'],
  });
  add('virtualsFactory', {
    name: 'virtuals-factory',
    contract: 'VirtualsFactory',
    args: [addresses.virtualPayment],
  });
  add('dpnmFactory', { name: 'dpnm-factory', contract: 'DpnmFactory', args: [addresses.usdt] });
  return { plans, addresses };
}

/** Creates whatever is missing on the chain at `rpcUrl`, paid by `account`. */
export async function deployReferenceContracts(
  rpcUrl: string,
  account: PrivateKeyAccount,
): Promise<Deployed[]> {
  const compiled = compileContracts();
  const transport = http(rpcUrl);
  const chain = createPublicClient({ transport });
  const chainId = await chain.getChainId();
  const wallet = createWalletClient({ account, transport });
  if (!(await chain.getCode({ address: CREATE2_DEPLOYER }))) {
    throw new Error(`chain ${chainId} has no CREATE2 deployer at ${CREATE2_DEPLOYER}`);
  }
  const { plans } = resolve(compiled);
  const deployed: Deployed[] = [];
  for (const plan of plans) {
    const code = initCode(compiled[plan.contract]!, plan.args);
    const address = addressOf(compiled[plan.contract]!, plan);
    if (await chain.getCode({ address })) {
      deployed.push({ name: plan.name, address, created: false });
      continue;
    }
    const sent = await wallet
      .sendTransaction({
        chain: null,
        to: CREATE2_DEPLOYER,
        data: concat([saltOf(plan.name), code]),
      })
      .then(async (hash) => ({ hash, receipt: await chain.waitForTransactionReceipt({ hash }) }))
      .catch((error: unknown) => ({ error }));
    if ('receipt' in sent && sent.receipt.status === 'success') {
      if (!(await chain.getCode({ address }))) {
        throw new Error(`${plan.name}: deployment to ${address} left no code (${sent.hash})`);
      }
      deployed.push({ name: plan.name, address, created: true });
      continue;
    }
    // Another deployer (a second `npm run dev`, a parallel test) may have created it since the
    // check above; CREATE2 to a taken address fails, and the contract there is the same one.
    if (await chain.getCode({ address })) {
      deployed.push({ name: plan.name, address, created: false });
      continue;
    }
    throw new Error(
      `${plan.name}: deployment to ${address} failed (${'hash' in sent ? sent.hash : String(sent.error)})`,
    );
  }
  return deployed;
}
