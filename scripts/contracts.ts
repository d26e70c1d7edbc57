import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Abi, Hex } from 'viem';

/**
 * The reference contracts (`contracts/src`, docs/chain.md) compiled with solc-js, the real
 * compiler in wasm: bytecode is built when needed (deploy, tests), and the ABIs are committed
 * under `contracts/abi/` by `npm run contracts:build` for wallet developers and viem's types.
 */

/**
 * solc-js compiles in a child process: the compiler is 9 MB of asm.js source and about 70 MB of
 * wasm memory that a process keeps for its life once loaded (measured in `npm run dev`, which
 * deploys the contracts at start-up and then serves for hours). Standard JSON in on stdin, out
 * on stdout. Plain CommonJS, so the child needs no TypeScript loader; every source is in the
 * input, so `./file` imports resolve without an import callback.
 */
const SOLC_SOURCE = `
const solc = require(process.argv[1]);
const chunks = [];
process.stdin.on('data', (chunk) => chunks.push(chunk));
process.stdin.on('end', () => process.stdout.write(solc.compile(Buffer.concat(chunks).toString('utf8'))));
`;

function runSolc(input: string): string {
  return execFileSync(process.execPath, ['-e', SOLC_SOURCE, require.resolve('solc')], {
    input,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
}

export const CONTRACTS_DIR = join(__dirname, '..', 'contracts');
const SOURCES = join(CONTRACTS_DIR, 'src');

export interface CompiledContract {
  abi: Abi;
  bytecode: Hex;
}

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[];
  contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
}

/** Solidity sources (file name → text, importing each other by `./file`), compiled. */
export function compileSources(files: Record<string, string>): Record<string, CompiledContract> {
  const sources = Object.fromEntries(
    Object.entries(files).map(([file, content]) => [file, { content }]),
  );
  const input = {
    language: 'Solidity',
    sources,
    settings: {
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  };
  const output = JSON.parse(runSolc(JSON.stringify(input))) as SolcOutput;
  const errors = (output.errors ?? []).filter((error) => error.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((error) => error.formattedMessage).join('\n'));
  const compiled: Record<string, CompiledContract> = {};
  for (const contracts of Object.values(output.contracts)) {
    for (const [name, contract] of Object.entries(contracts)) {
      // Abstract contracts have no bytecode.
      if (!contract.evm.bytecode.object) continue;
      compiled[name] = { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
    }
  }
  return compiled;
}

/** Every contract of `contracts/src`, by name. */
export function compileContracts(): Record<string, CompiledContract> {
  return compileSources(
    Object.fromEntries(
      readdirSync(SOURCES)
        .filter((file) => file.endsWith('.sol'))
        .map((file) => [file, readFileSync(join(SOURCES, file), 'utf8')]),
    ),
  );
}

/** The committed form of an ABI: stable, readable JSON. */
export function abiJson(abi: Abi): string {
  return `${JSON.stringify(abi, null, 2)}\n`;
}
