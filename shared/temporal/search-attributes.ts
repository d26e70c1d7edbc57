import { isGrpcServiceError, type Connection } from '@temporalio/client';
import {
  defineSearchAttributeKey,
  SearchAttributeType,
  type SearchAttributePair,
} from '@temporalio/common';
import { encodeSearchAttributeIndexedValueType } from '@temporalio/common/lib/search-attributes';

/**
 * The custom search attributes of this service's workflows (docs/decisions.md "Workflow search
 * attributes"): an operator finds a user's workflows in Temporal UI or with
 * `temporal workflow list --query "UserId='42'"`. They are set when a workflow is started,
 * never by workflow code, and continue-as-new keeps them.
 *
 * A start that names an attribute the namespace does not know is refused by Temporal, so every
 * server must have them registered: the dev runner, the test setup and docker compose do it,
 * every process registers what is missing before its first start
 * (search-attribute-registration.ts), and where the server refuses the service, an operator
 * runs the commands of `searchAttributeCommands`.
 */
export const searchAttributeKeys = {
  /** `users.id` in decimal: the user the workflow acts for. */
  userId: defineSearchAttributeKey('UserId', SearchAttributeType.KEYWORD),
  /** `projects.id` of a build. */
  projectId: defineSearchAttributeKey('ProjectId', SearchAttributeType.KEYWORD),
  /** `webhooks.id`: the subscription a delivery goes to. */
  webhookId: defineSearchAttributeKey('WebhookId', SearchAttributeType.KEYWORD),
  /** The token's contract address on its chain, lowercase. */
  tokenAddress: defineSearchAttributeKey('TokenAddress', SearchAttributeType.KEYWORD),
  /** The EVM chain id a workflow works on. */
  chainId: defineSearchAttributeKey('ChainId', SearchAttributeType.INT),
} as const;

/** Every custom search attribute, in a fixed order (registration, docs, compose). */
export const SEARCH_ATTRIBUTE_KEYS = Object.values(searchAttributeKeys);

/** What a start knows about its workflow; each value given becomes its search attribute. */
export interface WorkflowSearchAttributes {
  userId?: number;
  projectId?: string;
  webhookId?: string;
  /** Null: the token has no contract yet (still pending), so no attribute. */
  tokenAddress?: string | null;
  chainId?: number;
}

/** The `typedSearchAttributes` of a start: the values given, absent ones left out. */
export function searchAttributes(values: WorkflowSearchAttributes): SearchAttributePair[] {
  const keys = searchAttributeKeys;
  const pairs: SearchAttributePair[] = [];
  if (values.userId !== undefined) pairs.push({ key: keys.userId, value: String(values.userId) });
  if (values.projectId !== undefined) pairs.push({ key: keys.projectId, value: values.projectId });
  if (values.webhookId !== undefined) pairs.push({ key: keys.webhookId, value: values.webhookId });
  if (values.tokenAddress) {
    pairs.push({ key: keys.tokenAddress, value: values.tokenAddress.toLowerCase() });
  }
  if (values.chainId !== undefined) pairs.push({ key: keys.chainId, value: values.chainId });
  return pairs;
}

const CLI_TYPE_NAMES: Record<SearchAttributeType, string> = {
  TEXT: 'Text',
  KEYWORD: 'Keyword',
  INT: 'Int',
  DOUBLE: 'Double',
  BOOL: 'Bool',
  DATETIME: 'Datetime',
  KEYWORD_LIST: 'KeywordList',
};

/** `Name=Type` as the `temporal` CLI writes them (`server start-dev --search-attribute`). */
function searchAttributeSpecs(): string[] {
  return SEARCH_ATTRIBUTE_KEYS.map((key) => `${key.name}=${CLI_TYPE_NAMES[key.type]}`);
}

/** The dev server's flags that register every attribute at start. */
export function devServerSearchAttributeFlags(): string[] {
  return searchAttributeSpecs().flatMap((spec) => ['--search-attribute', spec]);
}

/** What an operator runs to register them by hand, one command per type. */
export function searchAttributeCommands(namespace: string): string[] {
  const byType = new Map<string, string[]>();
  for (const key of SEARCH_ATTRIBUTE_KEYS) {
    const type = CLI_TYPE_NAMES[key.type];
    byType.set(type, [...(byType.get(type) ?? []), key.name]);
  }
  return [...byType].map(
    ([type, names]) =>
      `temporal operator search-attribute create --namespace ${namespace} ` +
      `${names.map((name) => `--name ${name}`).join(' ')} --type ${type}`,
  );
}

/** A name the namespace has with another type: only an operator can sort that out. */
export class SearchAttributeTypeConflict extends Error {
  constructor(name: string, namespace: string, wanted: SearchAttributeType) {
    super(
      `search attribute ${name} exists in namespace ${namespace} with another type; ` +
        `this service needs ${CLI_TYPE_NAMES[wanted]}`,
    );
    this.name = 'SearchAttributeTypeConflict';
  }
}

const GRPC_ALREADY_EXISTS = 6;
const GRPC_UNIMPLEMENTED = 12;

function grpcCode(error: unknown): number | undefined {
  return isGrpcServiceError(error) ? error.code : undefined;
}

/**
 * The custom attributes the namespace has (name → IndexedValueType), or null when the server
 * cannot list them (the time-skipping test server implements adding only).
 */
async function registeredAttributes(
  connection: Pick<Connection, 'operatorService'>,
  namespace: string,
): Promise<Map<string, number> | null> {
  try {
    const listed = await connection.operatorService.listSearchAttributes({ namespace });
    return new Map(Object.entries(listed.customAttributes ?? {}));
  } catch (error) {
    if (grpcCode(error) === GRPC_UNIMPLEMENTED) return null;
    throw error;
  }
}

/**
 * Registers the attributes `namespace` lacks: lists them, then adds each missing one (one call
 * each, so one that another process added meanwhile, ALREADY_EXISTS, counts as done). Returns
 * the names added. Throws the server's error when it refuses (no operator rights, Temporal
 * Cloud, the namespace's limit of custom attributes) and `SearchAttributeTypeConflict` when a
 * name exists with another type.
 */
export async function ensureSearchAttributes(
  connection: Pick<Connection, 'operatorService'>,
  namespace: string,
): Promise<string[]> {
  const existing = await registeredAttributes(connection, namespace);
  const added: string[] = [];
  for (const key of SEARCH_ATTRIBUTE_KEYS) {
    const type = encodeSearchAttributeIndexedValueType(key.type)!;
    const found = existing?.get(key.name);
    if (found === type) continue;
    if (found !== undefined) throw new SearchAttributeTypeConflict(key.name, namespace, key.type);
    try {
      await connection.operatorService.addSearchAttributes({
        namespace,
        searchAttributes: { [key.name]: type },
      });
      added.push(key.name);
    } catch (error) {
      if (grpcCode(error) !== GRPC_ALREADY_EXISTS) throw error;
    }
  }
  return added;
}
