import {
  isGrpcServiceError,
  NamespaceNotFoundError,
  ServiceError,
  WorkflowExecutionAlreadyStartedError,
  type Client,
  type Workflow,
  type WorkflowStartOptions,
} from '@temporalio/client';
import { TEMPORAL_CALL_DEADLINE_MS } from './client';

/**
 * A request-path call to Temporal (start, signal), bounded by `TEMPORAL_CALL_DEADLINE_MS`:
 * without a deadline the client keeps retrying an unreachable server and the request hangs.
 */
export function withTemporalDeadline<T>(
  client: Pick<Client, 'connection'>,
  call: () => Promise<T>,
): Promise<T> {
  return client.connection.withDeadline(Date.now() + TEMPORAL_CALL_DEADLINE_MS, call);
}

/**
 * What a start that did not answer "started" means for the caller's undo:
 * - `already_started`: an execution with this id exists. Request-path ids are fresh (a run, a
 *   delivery), so it is this very start; treat it as started.
 * - `not_started`: the server answered and refused it (bad argument, unknown namespace, no
 *   rights, rate limited): nothing runs.
 * - `maybe_started`: no answer (deadline passed, connection lost, anything else): the start may
 *   have reached Temporal all the same, and its workflow may already be at work.
 */
export type StartOutcome =
  | { status: 'started' | 'already_started' }
  | { status: 'not_started' | 'maybe_started'; error: unknown };

/** gRPC codes with which the server refuses a start it did not perform. */
const REFUSED_CODES = new Set([
  3, // INVALID_ARGUMENT
  5, // NOT_FOUND
  7, // PERMISSION_DENIED
  8, // RESOURCE_EXHAUSTED
  9, // FAILED_PRECONDITION
  11, // OUT_OF_RANGE
  12, // UNIMPLEMENTED
  16, // UNAUTHENTICATED
]);

export function classifyStartError(error: unknown): StartOutcome {
  if (error instanceof WorkflowExecutionAlreadyStartedError) return { status: 'already_started' };
  if (error instanceof NamespaceNotFoundError) return { status: 'not_started', error };
  // The client wraps the server's answer in a ServiceError; a bare gRPC error counts the same.
  const grpc = error instanceof ServiceError ? error.cause : error;
  if (isGrpcServiceError(grpc) && REFUSED_CODES.has(grpc.code)) {
    return { status: 'not_started', error };
  }
  return { status: 'maybe_started', error };
}

/**
 * Starts a workflow from a request, within the deadline, and says what happened instead of
 * throwing. The caller owns the undo of what it wrote before the start (docs/decisions.md): a
 * `maybe_started` must be undone as if the workflow might be running, under the same locks in
 * the same order as the workflow's own writes.
 */
export async function startWithDeadline<T extends Workflow>(
  client: Pick<Client, 'connection' | 'workflow'>,
  workflowType: string,
  options: WorkflowStartOptions<T>,
): Promise<StartOutcome> {
  try {
    await withTemporalDeadline(client, () => client.workflow.start<T>(workflowType, options));
    return { status: 'started' };
  } catch (error) {
    return classifyStartError(error);
  }
}
