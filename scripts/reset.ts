import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadConfig } from '../shared/config';
import {
  DEV_POSTGRES_DEFAULT_PORT,
  DevError,
  exitWith,
  loadDotEnv,
  portAnswers,
  runningDevServer,
} from './dev-env';

/**
 * `npm run reset`: wipes `.data/` (the embedded database, the Temporal dev server's database,
 * anvil's chain state, Synapse's state, build workspaces), so the next `npm run dev` starts
 * from nothing. Synapse's virtualenv (`.data/synapse-venv`, a package install with no state)
 * is kept unless `--all`. Refused while `npm run dev` runs: its record (`.data/dev-server.json`)
 * names a live process, or its port or its embedded database port answers.
 */
async function main(): Promise<void> {
  loadDotEnv();
  const env: Record<string, string | undefined> = { NODE_ENV: 'development', ...process.env };
  const config = loadConfig(env);
  const all = process.argv.includes('--all');
  const running = runningDevServer();
  if (running) {
    throw new DevError(
      `npm run dev runs here (process ${running.pid}, port ${running.port}): stop it before ` +
        'npm run reset',
    );
  }
  const postgresPort = Number(env.DEV_POSTGRES_PORT ?? DEV_POSTGRES_DEFAULT_PORT);
  for (const [port, what] of [
    [config.port, 'PORT'],
    [postgresPort, 'DEV_POSTGRES_PORT'],
  ] as const) {
    if (await portAnswers(port)) {
      throw new DevError(
        `something answers on port ${port} (${what}): stop npm run dev before npm run reset`,
      );
    }
  }
  const dataDir = resolve('.data');
  if (!existsSync(dataDir)) {
    console.log(`${dataDir} does not exist: nothing to reset`);
    return;
  }
  const kept = all ? [] : ['synapse-venv'];
  const removed: string[] = [];
  for (const entry of readdirSync(dataDir)) {
    if (kept.includes(entry)) continue;
    rmSync(join(dataDir, entry), { recursive: true, force: true });
    removed.push(entry);
  }
  console.log(
    removed.length > 0 ? `removed from ${dataDir}: ${removed.join(', ')}` : `${dataDir} is empty`,
  );
  if (kept.some((entry) => existsSync(join(dataDir, entry)))) {
    console.log(`kept ${kept.join(', ')} (no state; npm run reset -- --all removes it too)`);
  }
}

main().catch(exitWith);
