import type { Client, Connection } from '@temporalio/client';
import { encodeSearchAttributeIndexedValueType } from '@temporalio/common/lib/search-attributes';
import { ensureSearchAttributesRegistered } from '../../shared/temporal/search-attribute-registration';
import {
  ensureSearchAttributes,
  SEARCH_ATTRIBUTE_KEYS,
  searchAttributeCommands,
  searchAttributes,
  SearchAttributeTypeConflict,
} from '../../shared/temporal/search-attributes';

/**
 * Registering the workflows' search attributes against servers that answer as real ones do:
 * the dev server lists and adds, the time-skipping test server only adds (and says
 * ALREADY_EXISTS), a production server may refuse or be unreachable.
 */

const KEYWORD = encodeSearchAttributeIndexedValueType('KEYWORD')!;
const INT = encodeSearchAttributeIndexedValueType('INT')!;

/** A gRPC error as @grpc/grpc-js makes them (what `isGrpcServiceError` recognises). */
function grpcError(code: number, details: string): Error {
  return Object.assign(new Error(`${code} ${details}`), { code, details, metadata: {} });
}

/** An operator service over `registered`; `list` and `add` may be replaced to fail. */
function fakeServer(
  registered: Record<string, number>,
  overrides: { list?: () => never; add?: (name: string) => void } = {},
) {
  const added: string[] = [];
  const operatorService = {
    async listSearchAttributes() {
      overrides.list?.();
      return { customAttributes: { ...registered } };
    },
    async addSearchAttributes(request: { searchAttributes: Record<string, number> }) {
      for (const [name, type] of Object.entries(request.searchAttributes)) {
        overrides.add?.(name);
        if (name in registered) throw grpcError(6, `Search attribute ${name} already exists.`);
        registered[name] = type;
        added.push(name);
      }
      return {};
    },
  };
  return { connection: { operatorService } as unknown as Connection, added, registered };
}

describe('ensureSearchAttributes', () => {
  it('adds only the attributes the namespace lacks, and nothing the second time', async () => {
    const server = fakeServer({ UserId: KEYWORD, CustomKeywordField: KEYWORD });
    const names = SEARCH_ATTRIBUTE_KEYS.map((key) => key.name).filter((name) => name !== 'UserId');
    expect(await ensureSearchAttributes(server.connection, 'default')).toEqual(names);
    expect(server.added).toEqual(names);
    expect(server.registered.ChainId).toBe(INT);
    expect(await ensureSearchAttributes(server.connection, 'default')).toEqual([]);
  });

  it('adds each one on a server that cannot list them, taking ALREADY_EXISTS as done', async () => {
    const server = fakeServer(
      { UserId: KEYWORD },
      {
        list: () => {
          throw grpcError(12, 'ListSearchAttributes is unimplemented');
        },
      },
    );
    expect(await ensureSearchAttributes(server.connection, 'default')).not.toContain('UserId');
    expect(Object.keys(server.registered).sort()).toEqual(
      SEARCH_ATTRIBUTE_KEYS.map((key) => key.name).sort(),
    );
  });

  it('refuses to go on when a name exists with another type', async () => {
    const server = fakeServer({ ChainId: KEYWORD });
    await expect(ensureSearchAttributes(server.connection, 'default')).rejects.toThrow(
      SearchAttributeTypeConflict,
    );
  });

  it('passes on the server’s refusal', async () => {
    const server = fakeServer(
      {},
      {
        add: () => {
          throw grpcError(7, 'Request unauthorized.');
        },
      },
    );
    await expect(ensureSearchAttributes(server.connection, 'default')).rejects.toMatchObject({
      code: 7,
    });
  });
});

describe('ensureSearchAttributesRegistered (before a process’s first start)', () => {
  const clientOf = (connection: Connection) =>
    ({ connection, options: { namespace: 'prod' } }) as unknown as Client;

  it('returns a refusal with the commands an operator runs instead, once per client', async () => {
    let calls = 0;
    const server = fakeServer(
      {},
      {
        list: () => {
          calls += 1;
          throw grpcError(7, 'Request unauthorized.');
        },
      },
    );
    const client = clientOf(server.connection);
    const registration = await ensureSearchAttributesRegistered(client);
    expect(registration).toEqual({
      status: 'refused',
      reason: '7 Request unauthorized.',
      commands: searchAttributeCommands('prod'),
    });
    expect(await ensureSearchAttributesRegistered(client)).toBe(registration);
    expect(calls).toBe(1);
  });

  it('rejects while the server is unreachable, and tries again on the next call', async () => {
    let unreachable = true;
    const server = fakeServer(
      {},
      {
        list: () => {
          if (unreachable) throw grpcError(14, 'No connection established');
          return undefined as never;
        },
      },
    );
    const client = clientOf(server.connection);
    await expect(ensureSearchAttributesRegistered(client)).rejects.toMatchObject({ code: 14 });
    unreachable = false;
    const registration = await ensureSearchAttributesRegistered(client);
    expect(registration).toEqual({
      status: 'registered',
      added: SEARCH_ATTRIBUTE_KEYS.map((key) => key.name),
    });
  });
});

describe('searchAttributes', () => {
  it('sets the values given, the user id in decimal and the address lowercase', () => {
    const pairs = searchAttributes({
      userId: 42,
      tokenAddress: '0xAbC0000000000000000000000000000000000001',
      chainId: 31337,
      projectId: undefined,
    });
    expect(pairs.map(({ key, value }) => [key.name, value])).toEqual([
      ['UserId', '42'],
      ['TokenAddress', '0xabc0000000000000000000000000000000000001'],
      ['ChainId', 31337],
    ]);
    expect(searchAttributes({ tokenAddress: null })).toEqual([]);
  });

  it('names every attribute in the operator’s commands, one command per type', () => {
    expect(searchAttributeCommands('default')).toEqual([
      'temporal operator search-attribute create --namespace default --name UserId --name ProjectId --name WebhookId --name TokenAddress --type Keyword',
      'temporal operator search-attribute create --namespace default --name ChainId --type Int',
    ]);
  });
});
