import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ToolError } from '../errors';
import { assertRealPathInside, isSymlink, workspacePath } from './paths';
import { MAX_FILE_BYTES } from './schemas';

/** Writes a whole file; naturally idempotent, so a retried call simply writes it again. */
export async function writeWorkspaceFile(
  workspaceDir: string,
  args: { path: string; content: string },
): Promise<{ path: string; bytes: number }> {
  const bytes = Buffer.byteLength(args.content, 'utf8');
  if (bytes > MAX_FILE_BYTES) {
    throw new ToolError(`content is ${bytes} bytes; the limit is ${MAX_FILE_BYTES}`);
  }
  const target = workspacePath(workspaceDir, args.path);
  if (target === workspaceDir) throw new ToolError('path names the workspace itself');
  const parent = dirname(target);
  await assertRealPathInside(workspaceDir, parent);
  await mkdir(parent, { recursive: true });
  if (await isSymlink(target)) throw new ToolError(`path "${args.path}" is a symbolic link`);
  await writeFile(target, args.content, 'utf8');
  return { path: target.slice(workspaceDir.length + 1), bytes };
}
