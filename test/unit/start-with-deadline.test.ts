import {
  NamespaceNotFoundError,
  ServiceError,
  WorkflowExecutionAlreadyStartedError,
} from '@temporalio/client';
import { classifyStartError } from '../../shared/temporal/start-with-deadline';

/** gRPC status codes (the client's transport is not a direct dependency). */
const status = {
  CANCELLED: 1,
  DEADLINE_EXCEEDED: 4,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  INVALID_ARGUMENT: 3,
  INTERNAL: 13,
  UNAVAILABLE: 14,
} as const;

/** A gRPC error as the client's transport rejects with it. */
function grpcError(code: number): Error {
  return Object.assign(new Error(`${code} grpc`), { code, details: 'x', metadata: {} });
}

const wrapped = (code: number) =>
  new ServiceError('Failed to start Workflow', { cause: grpcError(code) });

describe('classifyStartError', () => {
  it('counts an existing execution of the id as started', () => {
    const error = new WorkflowExecutionAlreadyStartedError('started', 'id', 'type');
    expect(classifyStartError(error).status).toBe('already_started');
  });

  it.each([status.INVALID_ARGUMENT, status.PERMISSION_DENIED, status.RESOURCE_EXHAUSTED])(
    'counts a refusal (code %s) as not started',
    (code) => {
      expect(classifyStartError(wrapped(code)).status).toBe('not_started');
    },
  );

  it('counts an unknown namespace as not started', () => {
    expect(classifyStartError(new NamespaceNotFoundError('ns')).status).toBe('not_started');
  });

  it.each([status.DEADLINE_EXCEEDED, status.UNAVAILABLE, status.CANCELLED, status.INTERNAL])(
    'counts a lost answer (code %s) as maybe started',
    (code) => {
      expect(classifyStartError(wrapped(code)).status).toBe('maybe_started');
    },
  );

  it('counts anything else as maybe started, keeping the error', () => {
    const error = new TypeError('boom');
    expect(classifyStartError(error)).toEqual({ status: 'maybe_started', error });
  });
});
