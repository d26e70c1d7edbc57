import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { spawn } from 'node:child_process';
import { onPath } from './tools';

/**
 * The local chain (anvil, chain 31337) of `npm run dev`, and the anvil binary the tests start
 * too. Kept apart from `embedded-services.ts` so the tests load it without the dev stand-ins.
 */

export interface RunningChain {
  url: string;
  source: string;
  stop: () => Promise<void>;
}

/** The anvil binary: ANVIL_PATH, else the npm package's (`@foundry-rs/anvil-<os>-<arch>`), else PATH. */
export function findAnvil(): string | undefined {
  const configured = process.env.ANVIL_PATH;
  if (configured) {
    if (!existsSync(configured)) throw new Error(`ANVIL_PATH=${configured} does not exist`);
    return configured;
  }
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  try {
    const manifest = require.resolve(`@foundry-rs/anvil-${process.platform}-${arch}/package.json`);
    const binary = manifest.replace(/package\.json$/, 'bin/anvil');
    if (existsSync(binary)) return binary;
  } catch {
    // not installed for this platform
  }
  return onPath('anvil');
}

export async function chainAnswers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    });
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * A local chain 31337 at `http://127.0.0.1:<port>`: an anvil already answering there is used
 * as it is; otherwise one is started whose state lives in `stateFile` (loaded on start,
 * written when it stops), so deployed contracts and balances survive a restart.
 */
export async function startLocalChain(options: {
  port: number;
  stateFile: string;
}): Promise<RunningChain> {
  const url = `http://127.0.0.1:${options.port}`;
  if (await chainAnswers(url)) {
    return { url, stop: async () => undefined, source: `the chain already at ${url}` };
  }
  const binary = findAnvil();
  if (!binary) throw new Error('anvil is not installed: run npm install, or set ANVIL_PATH');
  mkdirSync(dirname(options.stateFile), { recursive: true });
  const child = spawn(
    binary,
    [
      '--port',
      String(options.port),
      '--host',
      '127.0.0.1',
      '--silent',
      '--state',
      options.stateFile,
    ],
    { stdio: 'ignore' },
  );
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM'); // anvil writes its state file on a graceful stop
    await exited;
  };
  const deadline = Date.now() + 15_000;
  while (!(await chainAnswers(url))) {
    // A start that fails leaves no anvil behind.
    if (child.exitCode !== null) {
      throw new Error(`anvil exited (${child.exitCode}) before answering at ${url}`);
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`anvil did not answer at ${url} within 15 s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, stop, source: `anvil ${binary} (state in ${options.stateFile})` };
}
