import { randomBytes, randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { Client } from 'pg';
import type { App } from '../../api/app';
import { signIn, type SignedIn } from '../helpers/auth';
import { UNLIMITED_RATES, useTestApp } from '../helpers/context';
import { insertProject } from '../helpers/project-fixtures';

/**
 * Caching of a run's artifact (docs/spec/contract.md §7 "Artifact"): it never changes, so it is cacheable
 * for good and revalidated by ETag; a 304 never reads the bytes from PostgreSQL.
 */

type Reply = Awaited<ReturnType<App['inject']>>;

const SHA = 'c0ffee00112233445566778899aabbccddeeff00';
const TARBALL = gzipSync(randomBytes(4096));
const IMMUTABLE = 'max-age=31536000, immutable';

let alice: SignedIn;
let bob: SignedIn;

const test = useTestApp({ env: UNLIMITED_RATES });
beforeAll(async () => {
  [alice, bob] = await Promise.all([signIn(test.app), signIn(test.app)]);
});

/** A completed project of alice's whose run has the artifact; returns its URL. */
async function artifactUrl(options: { private: boolean }): Promise<string> {
  const { id, slug, runId } = await insertProject(test.ctx, {
    ownerId: alice.userId,
    private: options.private,
    status: 'completed',
  });
  await test.ctx.sql(
    `insert into project_runs (id, project_id, status, planner, head_sha, artifact,
       artifact_bytes, created_at, started_at, finished_at)
     values ($1, $2, 'completed', 'deterministic', $3, $4, $5, now(), now(), now())`,
    [runId, id, SHA, TARBALL, TARBALL.length],
  );
  return `/projects/${slug}/runs/${runId}/artifact`;
}

function get(url: string, session: SignedIn | null, headers: Record<string, string> = {}) {
  return test.app.inject({
    method: 'GET',
    url,
    headers: { ...headers, ...(session ? { cookie: session.cookie } : {}) },
  });
}

/**
 * The SQL the process sends while `during` runs: every statement reaches PostgreSQL through a
 * node-postgres client, MikroORM's (through Knex) and the SQL runner's alike.
 */
async function queriesDuring(during: () => Promise<Reply>): Promise<[Reply, string[]]> {
  const query = jest.spyOn(Client.prototype, 'query');
  try {
    const reply = await during();
    const sql = query.mock.calls.map(([config]) =>
      typeof config === 'string' ? config : (config as { text: string }).text,
    );
    return [reply, sql];
  } finally {
    query.mockRestore();
  }
}

/** Queries whose select list reads the artifact column (its bytes). */
const readingBytes = (queries: string[]) =>
  queries.filter((sql) => /\bartifact\b/.test(sql.slice(0, sql.search(/\sfrom\s/i))));

it('answers a public artifact with public immutable caching and an ETag, bytes read once', async () => {
  const url = await artifactUrl({ private: false });
  const [response, queries] = await queriesDuring(() => get(url, null));
  expect(response.statusCode).toBe(200);
  expect(response.headers['cache-control']).toBe(`public, ${IMMUTABLE}`);
  expect(response.headers.etag).toBe(`"${SHA}"`);
  expect(response.headers['content-type']).toBe('application/gzip');
  expect(response.rawPayload.equals(TARBALL)).toBe(true);
  expect(readingBytes(queries)).toHaveLength(1);
});

it('answers 304 to a matching If-None-Match without reading the bytes', async () => {
  const url = await artifactUrl({ private: false });
  for (const ifNoneMatch of [`"${SHA}"`, `W/"${SHA}"`, `"other", "${SHA}"`, '*']) {
    const [response, queries] = await queriesDuring(() =>
      get(url, null, { 'if-none-match': ifNoneMatch }),
    );
    expect(response.statusCode).toBe(304);
    expect(response.rawPayload.length).toBe(0);
    expect(response.headers.etag).toBe(`"${SHA}"`);
    expect(response.headers['cache-control']).toBe(`public, ${IMMUTABLE}`);
    expect(response.headers['content-disposition']).toBeUndefined();
    expect(response.headers['content-type']).toBeUndefined();
    expect(queries.length).toBeGreaterThan(0);
    expect(readingBytes(queries)).toEqual([]);
  }
  const stale = await get(url, null, { 'if-none-match': '"c0ffee"' });
  expect(stale.statusCode).toBe(200);
  expect(stale.rawPayload.equals(TARBALL)).toBe(true);
});

it('marks a private project’s artifact private, and shows nothing to others', async () => {
  const url = await artifactUrl({ private: true });
  const own = await get(url, alice);
  expect(own.statusCode).toBe(200);
  expect(own.headers['cache-control']).toBe(`private, ${IMMUTABLE}`);
  const revalidated = await get(url, alice, { 'if-none-match': `"${SHA}"` });
  expect(revalidated.statusCode).toBe(304);
  expect(revalidated.headers['cache-control']).toBe(`private, ${IMMUTABLE}`);
  // A matching ETag tells another user nothing either: the project does not exist for them.
  for (const [session, status, code] of [
    [bob, 404, 'project_not_found'],
    [null, 401, 'unauthenticated'],
  ] as const) {
    const response = await get(url, session, { 'if-none-match': `"${SHA}"` });
    expect({ status: response.statusCode, body: response.json() }).toEqual({
      status,
      body: { error: { code, message: expect.any(String) } },
    });
    expect(response.headers.etag).toBeUndefined();
    expect(response.headers['cache-control']).toBeUndefined();
  }
});

it('caches no error: a run without an artifact is a plain 404', async () => {
  const url = await artifactUrl({ private: false });
  const missing = url.replace(/runs\/[^/]+/, `runs/${randomUUID()}`);
  const response = await get(missing, null, { 'if-none-match': '*' });
  expect(response.statusCode).toBe(404);
  expect(response.json<{ error: { code: string } }>().error.code).toBe('artifact_not_found');
  expect(response.headers['cache-control']).toBeUndefined();
  expect(response.headers.etag).toBeUndefined();
});

it('documents the 304 and the planner values in OpenAPI', async () => {
  const document = (await test.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  const operation = document.paths['/projects/{slug}/runs/{runId}/artifact'].get;
  expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '304']));
  const planner = document.components.schemas.ProjectRunSummary.properties.planner;
  expect(planner.enum).toEqual(['pending', 'deterministic', 'llm']);
  expect(planner.description).toContain('`deterministic`');
});
