import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolError } from './errors';

/**
 * Refuses to go on while the work tree holds a `.git` entry (directory, file or link) other
 * than the workspace's own `.git` link file at its root. A build's script can lay down a
 * nested repository; `git add -A` takes it in as a gitlink, and from then on git starts a
 * git inside it (on every `add`, whatever the config says; on status and diff unless told to
 * ignore submodules, as workspace.ts does) that reads that repository's own config, whose
 * filters and fsmonitor are shell commands. Checked before `git add` and before every git
 * command of a build; the message tells the brain what to remove.
 */
export async function assertNoNestedRepository(workspaceDir: string): Promise<void> {
  const found = await findNestedGitEntry(workspaceDir);
  if (found) {
    throw new ToolError(
      `the workspace holds a nested git repository at "${found}"; git runs only on the build's own repository, so remove it first`,
    );
  }
}

/** The relative path of the first nested `.git` entry (any letter case), or null. */
async function findNestedGitEntry(workspaceDir: string): Promise<string | null> {
  const pending = [''];
  for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
    for (const entry of await entriesOf(workspaceDir, dir)) {
      const path = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.name.toLowerCase() === '.git') {
        if (dir === '' && entry.name === '.git' && entry.isFile()) continue;
        return path;
      }
      // Dirents describe the entry itself: a symbolic link to a directory is not followed,
      // as git does not follow it either.
      if (entry.isDirectory()) pending.push(path);
    }
  }
  return null;
}

async function entriesOf(workspaceDir: string, dir: string) {
  try {
    return await readdir(join(workspaceDir, dir), { withFileTypes: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    // Unreadable: git could not see inside either, but we cannot vouch for it.
    throw new ToolError(`cannot inspect "${dir || '.'}" of the workspace`);
  }
}
