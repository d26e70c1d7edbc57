import { randomBytes, randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { Client as PgClient } from 'pg';
import { MikroORM, migrate, ormOptions } from '../shared/db/orm';
import { sqlOf, statement, type Sql } from '../shared/db/sql';
import { apiKeyPrefix, generateApiKey, hashApiKey } from '../shared/domain/api-key';

/** The SSE bench's scratch data: its database, its projects, its Redis keys. */

interface IdRow<Id> {
  id: Id;
}

const insertUser = statement<IdRow<number>, [address: string]>(
  'bench_sse.insert_user',
  `insert into users (address, created_at) values ($1, now()) returning id`,
);

const insertProSubscription = statement<Record<string, never>, [userId: number]>(
  'bench_sse.insert_pro_subscription',
  `insert into subscriptions (user_id, tier, status, provider, renews_at, created_at, updated_at)
   values ($1, 'pro', 'active', 'cryptobot', now() + interval '30 days', now(), now())`,
);

const insertApiKey = statement<
  Record<string, never>,
  [userId: number, prefix: string, keyHash: string]
>(
  'bench_sse.insert_api_key',
  `insert into api_keys (id, user_id, prefix, key_hash, name, rate_limit_rpm, spend_limit,
                         spend_period, spend_used, spend_period_start, created_at)
   values (gen_random_uuid(), $1, $2, $3, 'bench pro viewer', 0, null, 'month', 0,
           date_trunc('month', now() at time zone 'UTC') at time zone 'UTC', now())`,
);

const insertToken = statement<
  IdRow<string>,
  [ownerId: number, slug: string, name: string, ticker: string]
>(
  'bench_sse.insert_token',
  `insert into tokens (id, owner_id, slug, name, ticker, template, chain_id, params, state, created_at)
   values (gen_random_uuid(), $1, $2, $3, $4, 'virtuals', 31337, '{}', 'live', now()) returning id`,
);

const insertProject = statement<
  IdRow<string>,
  [ownerId: number, tokenId: string, slug: string, status: string, currentRunId: string]
>(
  'bench_sse.insert_project',
  `insert into projects (id, owner_id, token_id, slug, title, brief, agent_template, private,
                         status, current_run_id, created_at, updated_at)
   values (gen_random_uuid(), $1, $2, $3, 'Bench', 'Bench', 'fullstack-builder', false, $4, $5,
           now(), now())
   returning id`,
);

export interface Fixture {
  orm: MikroORM;
  redis: Redis;
  prefix: string;
}

async function createUser(sql: Sql): Promise<{ id: number }> {
  const user = await sql.row(insertUser, [`0x${randomBytes(20).toString('hex')}`]);
  return user!;
}

/**
 * A user with an active pro subscription (`fasterSse`: every event as it happens) and the API
 * key its subscribers send as `x-api-key`. The key counts against its owner's rate limit
 * (`rate_limit_rpm` 0), which the bench raises; `apiKeyPepper` is the API's API_KEY_PEPPER.
 */
export async function createProViewer(orm: MikroORM, apiKeyPepper: string): Promise<string> {
  const sql = sqlOf(orm.em.fork());
  const user = await createUser(sql);
  await sql.run(insertProSubscription, [user.id]);
  const apiKey = generateApiKey();
  await sql.run(insertApiKey, [user.id, apiKeyPrefix(apiKey), hashApiKey(apiKeyPepper, apiKey)]);
  return apiKey;
}

export async function createProject(
  orm: MikroORM,
  status: string,
): Promise<{ id: string; slug: string; runId: string }> {
  const sql = sqlOf(orm.em.fork());
  const suffix = randomBytes(4).toString('hex');
  const user = await createUser(sql);
  const token = await sql.row(insertToken, [
    user.id,
    `bench-${suffix}`,
    `Bench ${suffix}`,
    suffix.slice(0, 6).toUpperCase(),
  ]);
  const runId = randomUUID();
  const slug = `bench-${suffix}`;
  const project = await sql.row(insertProject, [user.id, token!.id, slug, status, runId]);
  return { id: project!.id, slug, runId };
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export async function admin(adminUrl: string, sql: string): Promise<void> {
  const pg = new PgClient({ connectionString: adminUrl });
  await pg.connect();
  try {
    await pg.query(sql);
  } finally {
    await pg.end();
  }
}

/**
 * A bench's own database: created, its drop registered with `teardown` (also on failure or
 * Ctrl-C), migrated; `prepare` runs on its ORM before it closes. Returns its URL.
 */
export async function migratedDatabase(
  adminUrl: string,
  database: string,
  teardown: { add(name: string, undo: () => Promise<void>): void },
  prepare?: (orm: MikroORM) => Promise<void>,
): Promise<string> {
  await admin(adminUrl, `create database "${database}"`);
  teardown.add(`drop database ${database}`, () =>
    admin(adminUrl, `drop database if exists "${database}" with (force)`),
  );
  const databaseUrl = withDatabase(adminUrl, database);
  const options = ormOptions(databaseUrl, 2);
  const orm = await MikroORM.init({
    ...options,
    migrations: { ...options.migrations, silent: true },
  });
  try {
    await migrate(orm);
    await prepare?.(orm);
  } finally {
    await orm.close();
  }
  return databaseUrl;
}
