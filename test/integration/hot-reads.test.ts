import { randomUUID } from 'node:crypto';
import { Client as PgClient } from 'pg';
import { createKey, signIn, type SignedIn } from '../helpers/auth';
import { UNLIMITED_RATES, useTestApp } from '../helpers/context';
import { insertProject } from '../helpers/project-fixtures';
import { insertDelivery, insertWebhook, envelopeOf } from '../helpers/webhook-fixtures';

/**
 * Hot reads (issue 13, decisions "Hot reads"): each answers with one prepared statement on
 * `deps.db` and nothing else, whatever the page or the filters. Round trips are counted twice:
 * `deps.db.rows` (what `row` also goes through), and every statement any node-postgres client
 * sends (the read pool's and MikroORM's connections alike, BEGIN and COMMIT included).
 */

const test = useTestApp({ env: UNLIMITED_RATES });

let alice: SignedIn;
let keyId: string;
let projectSlug: string;
let webhookId: string;

beforeAll(async () => {
  alice = await signIn(test.app);
  keyId = (await createKey(test.app, alice)).id;
  await test.ctx.sql(
    `insert into api_key_usage (id, api_key_id, method, route, status, latency_ms, flow_cost,
                                model, created_at)
     select gen_random_uuid(), $1, 'GET', '/me', 200, 3, 10, 'm', now() - (i || ' minutes')::interval
       from generate_series(1, 5) as i`,
    [keyId],
  );
  await test.ctx.sql(
    `insert into ledger_entries (id, user_id, delta, balance_after, reason, ref_type, ref_id,
                                 metadata, created_at)
     select gen_random_uuid(), $1, 1000000, 1000000 * i, 'grant', 'credit', 'hot-' || i, '{}',
            now() - (i || ' seconds')::interval
       from generate_series(1, 5) as i`,
    [alice.userId],
  );
  projectSlug = (await insertProject(test.ctx, { ownerId: alice.userId, private: true })).slug;
  await insertProject(test.ctx, { ownerId: alice.userId });
  webhookId = (await insertWebhook(test.ctx, alice.userId, 'https://hooks.example/a')).id;
  for (let i = 0; i < 3; i++) {
    await insertDelivery(test.ctx, webhookId, envelopeOf(alice.userId, { i }));
  }
});

interface Trips {
  reads: number;
  statements: number;
}

/** Status and round trips of one GET, after a first one has warmed the credential caches. */
async function tripsOf(url: string, auth = true): Promise<Trips & { status: number }> {
  const headers = auth ? { cookie: alice.cookie } : {};
  await test.app.inject({ method: 'GET', url, headers });
  const statements = jest.spyOn(PgClient.prototype, 'query');
  const lists = jest.spyOn(test.ctx.deps.db, 'rows');
  const singles = jest.spyOn(test.ctx.deps.db, 'row');
  try {
    const response = await test.app.inject({ method: 'GET', url, headers });
    return {
      status: response.statusCode,
      reads: lists.mock.calls.length + singles.mock.calls.length,
      statements: statements.mock.calls.length,
    };
  } finally {
    lists.mockRestore();
    singles.mockRestore();
    statements.mockRestore();
  }
}

/** The second page's URL of a list, through the first page's cursor. */
async function secondPage(url: string): Promise<string> {
  const response = await test.app.inject({
    method: 'GET',
    url,
    headers: { cookie: alice.cookie },
  });
  const cursor = response.json<{ nextCursor: string | null }>().nextCursor;
  if (!cursor) throw new Error(`${url}: no second page`);
  return `${url}&cursor=${encodeURIComponent(cursor)}`;
}

describe('hot reads answer in one statement', () => {
  it('tokens, search', async () => {
    const [token] = await test.ctx.sql<{ slug: string }>('select slug from tokens limit 1');
    for (const url of [
      '/tokens',
      await secondPage('/tokens?limit=1&sort=name'),
      '/tokens?sort=old&state=live&template=virtuals&chainId=31337',
      `/tokens/${token!.slug}`,
      '/search?q=token',
      '/search?q=a%20longer%20query&type=token',
    ]) {
      expect({ url, ...(await tripsOf(url, false)) }).toEqual({
        url,
        status: 200,
        reads: 1,
        statements: 1,
      });
    }
  });

  it('the ledger, the balance, API keys and their usage', async () => {
    for (const url of [
      '/ledger',
      await secondPage('/ledger?limit=2&reason=grant'),
      '/me/flow-balance',
      '/me/api-keys',
      `/me/api-keys/${keyId}/usage?since=all`,
      `/me/api-keys/${keyId}/recent`,
    ]) {
      expect({ url, ...(await tripsOf(url)) }).toEqual({
        url,
        status: 200,
        reads: 1,
        statements: 1,
      });
    }
  });

  it('projects and webhooks', async () => {
    for (const url of [
      '/me/projects',
      await secondPage('/me/projects?limit=1'),
      `/projects/${projectSlug}`,
      '/me/webhooks',
      `/me/webhooks/${webhookId}/deliveries`,
      await secondPage(`/me/webhooks/${webhookId}/deliveries?limit=1`),
    ]) {
      expect({ url, ...(await tripsOf(url)) }).toEqual({
        url,
        status: 200,
        reads: 1,
        statements: 1,
      });
    }
  });

  it('the owner checks stay inside the one statement: another user’s id is one read, a 404', async () => {
    const other = randomUUID();
    for (const url of [
      `/me/api-keys/${other}/usage`,
      `/me/api-keys/${other}/recent`,
      `/me/webhooks/${other}/deliveries`,
    ]) {
      expect({ url, ...(await tripsOf(url)) }).toEqual({
        url,
        status: 404,
        reads: 1,
        statements: 1,
      });
    }
  });
});
