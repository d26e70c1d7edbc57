import { randomUUID } from 'node:crypto';
import type { ActivityExecuteInput } from '@temporalio/worker';
import { Agent, ApiKey } from '../../shared/db/entities';
import { redactError } from '../../shared/db/error-redaction';
import { sqlOf, statement } from '../../shared/db/sql';
import { redactingActivityErrors } from '../../workers/worker';
import { startAgentServer, type AgentServer } from '../helpers/agent-server';
import { signIn, type SignedIn } from '../helpers/auth';
import { UNLIMITED_RATES, useTestApp } from '../helpers/context';

/**
 * A write that fails must not put its values in a log line or a workflow history: the probe
 * found an agent's `endpoint_secret` and an API key's `key_hash` in the API log, inside the
 * failing INSERT that the 500's error line carried. Each test makes a real write fail in
 * PostgreSQL (a trigger refuses it, or a unique key) and greps what was captured. Entity
 * writes (MikroORM) render their values into the error's message; the SQL runner binds them,
 * but PostgreSQL's `detail` still quotes a duplicated key.
 */

const test = useTestApp({ env: UNLIMITED_RATES });

const insertUser = statement<Record<string, never>, [id: number, address: string]>(
  'test.log_redaction_insert_user',
  'insert into users (id, address) values ($1, $2)',
);
const insertAddress = statement<Record<string, never>, [address: string]>(
  'test.log_redaction_insert_address',
  'insert into users (address) values ($1)',
);
let agentServer: AgentServer;
let alice: SignedIn;

beforeAll(async () => {
  agentServer = await startAgentServer();
  alice = await signIn(test.app);
  await test.ctx.sql(`create function refuse_write() returns trigger language plpgsql as $$
    begin raise exception 'write refused by the test'; end $$`);
  for (const table of ['agents', 'api_keys']) {
    await test.ctx.sql(
      `create trigger refuse_write before insert on ${table} for each row execute function refuse_write()`,
    );
  }
});
afterAll(async () => agentServer.close());

function capturedLogs(): string {
  return test.ctx.logs.map((line) => JSON.stringify(line)).join('\n');
}

describe('a failed write', () => {
  it('leaves no statement and no value in the log: agent create, key create', async () => {
    const before = test.ctx.logs.length;
    const agent = await test.app.inject({
      method: 'POST',
      url: '/agents',
      headers: { cookie: alice.cookie },
      payload: { name: 'Leaky', endpointUrl: agentServer.url(`/agent/${randomUUID()}`) },
    });
    const key = await test.app.inject({
      method: 'POST',
      url: '/me/api-keys',
      headers: { cookie: alice.cookie },
      payload: { name: 'leaky key' },
    });
    for (const response of [agent, key]) {
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({
        error: { code: 'internal_error', message: 'Internal server error' },
      });
    }
    const failures = test.ctx.logs.slice(before).filter((line) => line.msg === 'request failed');
    expect(failures).toHaveLength(2);
    for (const failure of failures) {
      // What happened is still there: the class, PostgreSQL's message and its SQLSTATE.
      expect(failure.err).toMatchObject({
        type: expect.any(String),
        message: 'write refused by the test (SQLSTATE P0001)',
        code: 'P0001',
      });
    }
    const logged = capturedLogs();
    expect(logged).not.toMatch(/whsec_/);
    expect(logged).not.toMatch(/insert into/i);
    expect(logged).not.toMatch(/[0-9a-f]{64}/); // a key hash
  });

  it('had those values in the error itself (the check above can fail)', async () => {
    // The key route's write, an entity flush: MikroORM renders its values into the message.
    const em = test.ctx.deps.orm.em.fork();
    const now = new Date();
    em.create(ApiKey, {
      id: randomUUID(),
      user: alice.userId,
      prefix: 'sk_live_x',
      keyHash: 'f'.repeat(64),
      name: 'k',
      rateLimitRpm: 60,
      spendPeriod: 'day',
      spendUsed: 0n,
      spendPeriodStart: now,
      createdAt: now,
    });
    const failed = await em.flush().catch((error: unknown) => error as Error);
    expect(failed).toBeInstanceOf(Error);
    expect((failed as Error).message).toContain('f'.repeat(64));
    const redacted = redactError(failed) as Error;
    expect(redacted.message).toBe('write refused by the test (SQLSTATE P0001)');
    expect(JSON.stringify({ ...redacted, stack: redacted.stack })).not.toContain('f'.repeat(64));
  });

  it('keeps a unique violation useful without the duplicated key', async () => {
    const [row] = await test.ctx.sql<{ id: number }>(
      'insert into users (address) values ($1) returning id',
      [`0x${'c'.repeat(40)}`],
    );
    // Through the runner the values are bound, but PostgreSQL's detail still quotes the key.
    const failed = await sqlOf(test.ctx.deps.orm.em.fork())
      .run(insertUser, [row!.id, `0x${'d'.repeat(40)}`])
      .catch((error: unknown) => error as Error);
    const duplicated = `Key (id)=(${row!.id}) already exists`;
    expect((failed as Error & { detail?: string }).detail).toContain(duplicated);
    expect((failed as Error).message).toContain(duplicated);
    expect((failed as Error).stack).toContain(duplicated);
    const redacted = redactError(failed) as Error & Record<string, unknown>;
    expect(redacted.message).toBe(
      'duplicate key value violates unique constraint "users_pkey" (SQLSTATE 23505)',
    );
    expect(redacted).toMatchObject({ constraint: 'users_pkey', table: 'users' });
    expect(redacted.detail).toBeUndefined();
    expect(redacted.stack).not.toContain('Key (id)');
    expect(redacted.stack).not.toContain('d'.repeat(40));
  });

  /** Runs `write` as an activity would, through the workers' interceptor. */
  async function asActivity(write: () => Promise<unknown>) {
    const interceptor = redactingActivityErrors({} as never).inbound!;
    let raw: unknown;
    const thrown: unknown = await interceptor.execute!(
      { args: [] } as unknown as ActivityExecuteInput,
      () =>
        write().catch((error: unknown) => {
          raw = error;
          throw error;
        }),
    ).catch((error: unknown) => error);
    expect(raw).toBeInstanceOf(Error);
    expect(thrown).toBeInstanceOf(Error);
    return { raw: raw as Error, thrown: thrown as Error };
  }

  it('reaches a workflow history redacted: the activity interceptor rethrows it so', async () => {
    const now = new Date();
    const { raw, thrown } = await asActivity(() =>
      test.ctx.deps.orm.em.fork().insert(Agent, {
        id: randomUUID(),
        owner: alice.userId,
        slug: `leaky-${randomUUID()}`,
        name: 'Leaky',
        endpointUrl: 'https://agent.example/a',
        endpointSecret: 'whsec_secret',
        createdAt: now,
        updatedAt: now,
      }),
    );
    expect(raw.message).toContain('whsec_secret');
    expect(thrown.message).toBe('write refused by the test (SQLSTATE P0001)');
    expect(thrown.stack).not.toContain('whsec_secret');
  });

  it("redacts the runner's refusals on their way to a workflow history, detail and all", async () => {
    const address = `0x${'e'.repeat(40)}`;
    await test.ctx.sql('insert into users (address) values ($1)', [address]);
    const { raw, thrown } = await asActivity(() =>
      sqlOf(test.ctx.deps.orm.em.fork()).run(insertAddress, [address]),
    );
    expect(raw.stack).toContain(address);
    expect(thrown.message).toBe(
      'duplicate key value violates unique constraint "users_address_unique" (SQLSTATE 23505)',
    );
    expect(JSON.stringify({ ...thrown, stack: thrown.stack })).not.toContain(address);
  });
});
