import { lstat, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, join, posix, sep } from 'node:path';
import { ToolError } from '../errors';

/**
 * Resolves a path a brain gave against the workspace. Refused: absolute paths, anything that
 * climbs out with "..", and the repository's `.git` entry. Returns the absolute path.
 */
export function workspacePath(workspaceDir: string, given: string): string {
  if (given.includes('\0')) throw new ToolError('path contains a NUL byte');
  const slashed = given.replace(/\\/g, '/');
  if (isAbsolute(given) || slashed.startsWith('/')) {
    throw new ToolError(`path "${given}" is absolute; use a path relative to the workspace`);
  }
  const normalized = posix.normalize(slashed);
  const segments = normalized.split('/');
  if (segments[0] === '..') throw new ToolError(`path "${given}" leaves the workspace`);
  if (segments.includes('.git')) throw new ToolError(`path "${given}" is inside .git`);
  return normalized === '.' ? workspaceDir : join(workspaceDir, normalized);
}

/**
 * A path must really be inside the workspace once symbolic links are followed (a build's
 * script could have made a link to somewhere outside). For a path that does not exist yet,
 * its nearest existing ancestor is checked, which is where anything new would be created.
 */
export async function assertRealPathInside(workspaceDir: string, target: string): Promise<void> {
  const root = await realpath(workspaceDir);
  let candidate = target;
  for (;;) {
    try {
      const real = await realpath(candidate);
      if (real !== root && !real.startsWith(root + sep)) {
        throw new ToolError('path resolves outside the workspace');
      }
      return;
    } catch (err) {
      if (err instanceof ToolError) throw err;
      const parent = dirname(candidate);
      if (parent === candidate || candidate === workspaceDir) return;
      candidate = parent;
    }
  }
}

/** True when `target` exists and is a symbolic link. */
export async function isSymlink(target: string): Promise<boolean> {
  try {
    return (await lstat(target)).isSymbolicLink();
  } catch {
    return false;
  }
}
