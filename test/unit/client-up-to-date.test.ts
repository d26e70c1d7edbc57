import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * The committed client (client/openapi.json, client/schema.d.ts) is what the route schemas
 * give now: a schema change without `npm run client:generate` fails here. It runs
 * `npm run client:check` itself, in a child process, as a developer would (no service needed).
 */

const ROOT = join(__dirname, '..', '..');

it('client/openapi.json and client/schema.d.ts are up to date (npm run client:check)', async () => {
  const check = promisify(execFile)(
    process.execPath,
    [require.resolve('tsx/cli'), 'scripts/client-generate.ts', '--check'],
    { cwd: ROOT, timeout: 50_000 },
  );
  // On failure, the check's own message: which file differs, and to run npm run client:generate.
  const { stdout } = await check.catch((err: { stderr?: string; message: string }) => {
    throw new Error(err.stderr || err.message);
  });
  expect(stdout).toContain('up to date');
});
