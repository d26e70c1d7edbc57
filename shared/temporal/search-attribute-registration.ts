import { isGrpcServiceError, type Client } from '@temporalio/client';
import type { Logger } from '../logger';
import {
  ensureSearchAttributes,
  searchAttributeCommands,
  SearchAttributeTypeConflict,
} from './search-attributes';

/** What registering the workflows' search attributes came to, for the log. */
export type SearchAttributeRegistration =
  | { status: 'registered'; added: string[] }
  /** The server said no: an operator runs `commands` (docs/decisions.md "Workflow search attributes"). */
  | { status: 'refused'; reason: string; commands: string[] };

/**
 * gRPC codes of a server that will not register them however often it is asked: bad argument
 * (the namespace's limit of custom attributes), failed precondition, no rights, not implemented
 * (Temporal Cloud registers them through its own control plane), unauthenticated.
 */
const REFUSED_CODES = new Set([3, 7, 9, 12, 16]);

const registrations = new WeakMap<Client, Promise<SearchAttributeRegistration>>();

/**
 * Registers the search attributes (search-attributes.ts) the client's namespace lacks, once
 * per client: every start site of the service waits for it before its first start, so a
 * process never names an attribute it could have registered, whichever process starts first
 * (the API's boot-time singletons, a worker's delivery, a test's own Temporal server). Later
 * calls cost nothing. A refusal does not reject: it is returned, for the log, with the commands
 * an operator runs instead (a start that names an attribute the server lacks then fails with
 * Temporal's own message). An unreachable server rejects, and the next call tries again.
 */
export function ensureSearchAttributesRegistered(
  client: Client,
): Promise<SearchAttributeRegistration> {
  let registration = registrations.get(client);
  if (!registration) {
    registration = register(client);
    registrations.set(client, registration);
    registration.catch(() => registrations.delete(client));
  }
  return registration;
}

async function register(client: Client): Promise<SearchAttributeRegistration> {
  const namespace = client.options.namespace;
  try {
    return {
      status: 'registered',
      added: await ensureSearchAttributes(client.connection, namespace),
    };
  } catch (error) {
    const refused =
      error instanceof SearchAttributeTypeConflict ||
      (isGrpcServiceError(error) && REFUSED_CODES.has(error.code));
    if (!refused) throw error;
    return {
      status: 'refused',
      reason: error instanceof Error ? error.message : String(error),
      commands: searchAttributeCommands(namespace),
    };
  }
}

/** The start-up log line of a registration: a refusal is a warning that names the commands. */
export function logSearchAttributeRegistration(
  logger: Pick<Logger, 'info' | 'warn'>,
  registration: SearchAttributeRegistration,
): void {
  if (registration.status === 'registered') {
    logger.info({ added: registration.added }, 'workflow search attributes registered');
    return;
  }
  logger.warn(
    { reason: registration.reason, commands: registration.commands },
    'Temporal refused to register the workflow search attributes: workflow starts fail until ' +
      'an operator registers them with these commands',
  );
}
