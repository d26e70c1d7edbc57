import { randomUUID } from 'node:crypto';
import type { ActivityExecuteInput } from '@temporalio/worker';
import { redactError } from '../../shared/db/error-redaction';
import { redactingActivityErrors } from '../../workers/worker';
import { startAgentServer, type AgentServer } from '../helpers/agent-server';
import { signIn, type SignedIn } from '../helpers/auth';
import { UNLIMITED_RATES, useTestApp } from '../helpers/context';

/**
 * A write that fails must not put its values in a log line or a workflow history: the probe
 * found an agent's `endpoint_secret` and an API key's `key_hash` in the API log, inside the
 * failing INSERT that the 500's error line carried. Each test makes a real write fail in
 * PostgreSQL (a trigger refuses it) and greps what was captured.
 */

const test = useTestApp({ env: UNLIMITED_RATES });
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
    const failed = await test.ctx.deps.orm.em
      .fork()
      .execute(
        `insert into api_keys (id, user_id, prefix, key_hash, name, rate_limit_rpm, spend_period,
                               spend_period_start, created_at)
         values (?, ?, 'sk_live_x', ?, 'k', 60, 'day', now(), now())`,
        [randomUUID(), alice.userId, 'f'.repeat(64)],
      )
      .catch((error: unknown) => error as Error);
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
    const failed = await test.ctx.deps.orm.em
      .fork()
      .execute(`insert into users (id, address) values (?, ?)`, [row!.id, `0x${'d'.repeat(40)}`])
      .catch((error: unknown) => error as Error);
    expect((failed as Error & { detail?: string }).detail).toContain(String(row!.id));
    const redacted = redactError(failed) as Error & Record<string, unknown>;
    expect(redacted.message).toBe(
      'duplicate key value violates unique constraint "users_pkey" (SQLSTATE 23505)',
    );
    expect(redacted).toMatchObject({ constraint: 'users_pkey', table: 'users' });
    expect(redacted.detail).toBeUndefined();
    expect(redacted.stack).not.toContain('d'.repeat(40));
  });

  it('reaches a workflow history redacted: the activity interceptor rethrows it so', async () => {
    const interceptor = redactingActivityErrors({} as never).inbound!;
    const thrown = await interceptor.execute!({ args: [] } as unknown as ActivityExecuteInput, () =>
      test.ctx.deps.orm.em
        .fork()
        .execute(`insert into agents (id, name) values (?, ?)`, [randomUUID(), 'whsec_secret']),
    ).catch((error: unknown) => error as Error);
    expect(thrown).toBeInstanceOf(Error);
    expect((thrown as Error).message).toBe('write refused by the test (SQLSTATE P0001)');
    expect((thrown as Error).stack).not.toContain('whsec_secret');
  });
});
