import { ToolError } from '../errors';
import { eventKeys } from '../journal';
import { cutText } from '../storable';
import type { ToolContext, ToolOutcome } from './index';

/** How many of a commit's paths its `commit` event and tool result list, and how long each. */
export const MAX_LISTED_FILES = 200;
const MAX_LISTED_PATH_CHARS = 512;

/**
 * Commits with a `Build-Step` trailer naming the step. If HEAD already carries it, this step
 * committed before its worker died (after the commit, before its events were written): that
 * commit is reused, so a retried step never makes a second one.
 */
export async function commitStep(ctx: ToolContext, message: string): Promise<ToolOutcome> {
  const trailer = `Build-Step: ${ctx.runId}/t${ctx.turn}.${ctx.index}`;
  const head = await ctx.workspace.head();
  let commit: { sha: string; files: string[] };
  if (head && head.message.split('\n').some((line) => line.trim() === trailer)) {
    commit = { sha: head.sha, files: await ctx.workspace.filesOf(head.sha) };
  } else {
    // Refused (a tool error) while the work tree holds a nested repository: see stageAll.
    if (!(await ctx.workspace.stageAll()))
      throw new ToolError('nothing to commit: the workspace has no changes');
    commit = await ctx.workspace.commitStaged(`${message}\n\n${trailer}`);
  }
  const listed = listedFiles(commit.files);
  return {
    result: { sha: commit.sha, ...listed },
    events: [
      {
        key: eventKeys.commit(ctx.runId, ctx.turn, ctx.index),
        type: 'commit',
        data: { sha: commit.sha, message, ...listed },
      },
    ],
  };
}

/**
 * The first 200 paths (a path of a deep tree cut at 512 characters), and when there are more,
 * how many there are in all (`filesTotal`): one event stays small however much a build made.
 */
function listedFiles(all: string[]): { files: string[]; filesTotal?: number } {
  const files = all.slice(0, MAX_LISTED_FILES).map((path) => cutText(path, MAX_LISTED_PATH_CHARS));
  return all.length > MAX_LISTED_FILES ? { files, filesTotal: all.length } : { files };
}
