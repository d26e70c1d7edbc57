import { ApplicationFailure } from '@temporalio/activity';

/**
 * The failure type whose message is safe to show the project's owner (it becomes the run's
 * `reason`, the `project.failed` webhook's `reason` and the final `error` event). The build
 * workflow shows any other failure as a generic message. Keep in step with workflows/project-build.ts.
 */
export const BUILD_ERROR_TYPE = 'BuildError';

/** A build failure with an owner-facing message; `retryable` lets Temporal try the step again. */
export function buildFailure(message: string, options: { retryable: boolean }): ApplicationFailure {
  return ApplicationFailure.create({
    type: BUILD_ERROR_TYPE,
    message,
    nonRetryable: !options.retryable,
  });
}

/**
 * A tool call that failed in a way the brain can react to (bad path, failing command, nothing
 * to commit): it becomes the call's `tool_result.error`, never a failed activity.
 */
export class ToolError extends Error {
  constructor(
    message: string,
    readonly result: unknown = null,
  ) {
    super(message);
    this.name = 'ToolError';
  }
}
