import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Abi, Hex } from 'viem';

// solc-js ships without types; this is the part of its interface used here.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const solc = require('solc') as { compile(input: string): string };

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[];
  contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
}

/** Compiles one contract of `test/fixtures/<file>` with solc-js (the real compiler, in wasm). */
export function compileFixture(file: string, contract: string): { abi: Abi; bytecode: Hex } {
  const source = readFileSync(join(__dirname, '..', 'fixtures', file), 'utf8');
  const output = JSON.parse(
    solc.compile(
      JSON.stringify({
        language: 'Solidity',
        sources: { [file]: { content: source } },
        settings: { outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
      }),
    ),
  ) as SolcOutput;
  const errors = (output.errors ?? []).filter((error) => error.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((error) => error.formattedMessage).join('\n'));
  const compiled = output.contracts[file]?.[contract];
  if (!compiled) throw new Error(`${contract} not found in ${file}`);
  return { abi: compiled.abi, bytecode: `0x${compiled.evm.bytecode.object}` };
}
