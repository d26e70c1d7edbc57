import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileSources, type CompiledContract } from '../../scripts/contracts';

/** Compiles one contract of `test/fixtures/<file>` with solc-js (the real compiler, in wasm). */
export function compileFixture(file: string, contract: string): CompiledContract {
  const source = readFileSync(join(__dirname, '..', 'fixtures', file), 'utf8');
  const compiled = compileSources({ [file]: source })[contract];
  if (!compiled) throw new Error(`${contract} not found in ${file}`);
  return compiled;
}
