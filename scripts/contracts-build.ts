import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { abiJson, compileContracts, CONTRACTS_DIR } from './contracts';

/** `npm run contracts:build`: compiles contracts/src and writes contracts/abi/<Name>.json. */
const compiled = compileContracts();
for (const [name, { abi }] of Object.entries(compiled)) {
  writeFileSync(join(CONTRACTS_DIR, 'abi', `${name}.json`), abiJson(abi));
}
console.log(`contracts/abi: ${Object.keys(compiled).sort().join(', ')}`);
