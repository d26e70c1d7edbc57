import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { App } from '../../api/app';
import { workflowIds } from '../../shared/temporal';
import { createKey, signIn, type SignedIn } from './auth';
import { UNLIMITED_RATES, type TestContext } from './context';
import { expectError } from './errors';
import { grantTier } from './tiers';
import { dpnmTokenBody } from './token-bodies';

/**
 * The common security cases of every operation in the OpenAPI document (like unkey's
 * `runCommonRouteTests`), run by test/integration/route-security.test.ts:
 *
 * - credentials that must not pass: none, a revoked API key, a logged-out session, a token of
 *   another kind (docs/decisions.md "Identity and access": an internal token on a user route
 *   is 401, a user on an internal route 403 `forbidden`; the bot gateway answers exactly
 *   `{"error":"unauthorized"}`, docs/bot-gateway.md);
 * - another user sending the owner's request: the contract's "not yours" answer, which each
 *   route states in the test's table (404 `*_not_found` for what only its owner sees, 403
 *   `not_owner` for writes on what everyone may read);
 * - a malformed value in each path parameter: 400 or 404, never a 5xx.
 *
 * Each refusal must be exactly the error envelope with a code the operation documents at that
 * status, and a refused write must leave every table as it was (`fingerprint`). The owner's
 * resources are made once through the API (`createSecurityWorld`); a path parameter of a kind
 * with no fixture in PARAM_FIXTURES fails its operation's "has security cases" test.
 */

export type AuthKind = 'none' | 'public' | 'user' | 'internal' | 'bot';

export interface Operation {
  /** `PATCH /agents/{slug}` */
  label: string;
  method: string;
  path: string;
  auth: AuthKind;
  params: string[];
  /** The error codes the document lists, by status. */
  errors: Record<string, string[]>;
}

/** The owner's (user A's) resources; `otherWebhook` is the other user's. */
export type FixtureName =
  | 'agent'
  | 'draftAgent'
  | 'token'
  | 'project'
  | 'privateProject'
  | 'activeProject'
  | 'run'
  | 'key'
  | 'webhook'
  | 'delivery'
  | 'otherWebhook';

export interface SecurityWorld {
  app: App;
  ctx: TestContext;
  owner: SignedIn;
  other: SignedIn;
  /** A live API key of the owner (raw), and a revoked one. */
  ownerKey: string;
  revokedKey: string;
  /** A session token of the owner, logged out. */
  loggedOut: string;
  fx: Record<FixtureName, string>;
  /** The operations of the document this app serves, by label. */
  served: Map<string, Operation>;
  /** Workflows the fixtures started (no worker runs here), ended after the file. */
  workflows: string[];
}

/** What another user gets when sending the owner's request. */
export interface Foreign {
  /** What of the owner's they are after, e.g. `private project`. */
  what: string;
  /** Path parameters whose fixture is not the operation's own. */
  params?: Record<string, FixtureName>;
  status: number;
  code: string;
}

/** One operation's entry in the test's table. */
export interface RouteCase {
  /** Public and unauthenticated operations: why they need no credential. */
  open?: string;
  /** The owner's body: what a refused request would write if it were let through. */
  body?: (world: SecurityWorld) => unknown;
  /** Path parameters whose fixture is not the one of their kind. */
  params?: Record<string, FixtureName>;
  foreign?: Foreign[];
  /** Served outside production only (absent from client/openapi.json), with this auth. */
  devOnly?: AuthKind;
}

export type Routes = Record<string, RouteCase>;

const INTERNAL_TOKEN = 'internal-token-for-route-security-0123456789';
const BOT_TOKEN = 'bot-token-for-route-security-0123456789';

/** The app's environment: unlimited rates, an internal and a bot token. */
export const SECURITY_ENV = {
  ...UNLIMITED_RATES,
  INTERNAL_TOKENS: INTERNAL_TOKEN,
  BOT_TOKENS: BOT_TOKEN,
};

// ---------------------------------------------------------------------------------------
// The document

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

interface Document {
  paths: Record<string, Record<string, { security?: unknown; responses?: Record<string, Media> }>>;
}
interface Media {
  content?: Record<string, { examples?: Record<string, unknown> }>;
}

/** The auth of an operation, from the `security` api/plugins/auth.ts gives it. */
function authOf(label: string, security: unknown): AuthKind {
  if (!Array.isArray(security)) throw new Error(`${label}: the document gives no security`);
  if (security.length === 0) return 'none';
  const schemes = security.map((requirement) => Object.keys(requirement as object).join('+'));
  if (schemes.includes('')) return 'public';
  if (schemes.includes('botToken')) return 'bot';
  if (schemes.includes('internalToken')) return 'internal';
  if (schemes.some((scheme) => ['session', 'bearer', 'apiKey'].includes(scheme))) return 'user';
  throw new Error(`${label}: unknown security ${JSON.stringify(security)}`);
}

function operationsOf(document: Document): Operation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => {
      const operation = item[method]!;
      const label = `${method.toUpperCase()} ${path}`;
      const errors: Record<string, string[]> = {};
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        errors[status] = Object.keys(response.content?.['application/json']?.examples ?? {});
      }
      return {
        label,
        method: method.toUpperCase(),
        path,
        auth: authOf(label, operation.security),
        params: [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!),
        errors,
      };
    }),
  );
}

/**
 * The operations to generate tests for, known before any app runs (jest collects tests
 * synchronously): those of client/openapi.json, the production document (client-keys.test.ts
 * holds it equal to what a server serves), plus the development-only ones of `routes`. The
 * test then checks this list against the document its app serves.
 */
export function collectedOperations(routes: Routes): Operation[] {
  const file = join(__dirname, '..', '..', 'client', 'openapi.json');
  const operations = operationsOf(JSON.parse(readFileSync(file, 'utf8')) as Document);
  const known = new Set(operations.map((operation) => operation.label));
  for (const [label, route] of Object.entries(routes)) {
    if (known.has(label) || !route.devOnly) continue;
    const [method, path] = label.split(' ') as [string, string];
    const params = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
    operations.push({ label, method, path, auth: route.devOnly, params, errors: {} });
  }
  return operations;
}

// ---------------------------------------------------------------------------------------
// Fixtures: two users, their credentials and the owner's resources

/** The fixture of a path parameter, by kind (`<segment before it>/{name}`); null: any value. */
export const PARAM_FIXTURES: Record<string, FixtureName | null> = {
  'agents/{slug}': 'agent',
  'projects/{slug}': 'project',
  'runs/{runId}': 'run',
  'p/{slug}': 'project',
  'tokens/{slug}': 'token',
  'api-keys/{id}': 'key',
  'webhooks/{id}': 'webhook',
  'deliveries/{deliveryId}': 'delivery',
  'payouts/{path}': null,
  'assets/{file}': null,
  'media/{id}': null,
  'approvals/{id}': null,
  'rooms/{id}': null,
  'payments/{provider}': null,
};

function paramKind(path: string, param: string): string {
  const segments = path.split('/');
  return `${segments[segments.indexOf(`{${param}}`) - 1] ?? ''}/{${param}}`;
}

/** Bodies that create or change something when the owner sends them. */
export const BODIES = {
  agent: { name: 'Security agent', description: 'Answers', endpointUrl: 'http://127.0.0.1:9/a' },
  publish: { monetization: 'per_call', perCallPriceFlow: 0.5, tags: ['security'] },
  token: (ticker: string) => dpnmTokenBody('Security Token', ticker),
  project: { title: 'Security project', brief: 'A page.', agentTemplate: 'fullstack-builder' },
  webhook: { url: 'http://127.0.0.1:9/hooks' },
};

type Setup = Omit<SecurityWorld, 'fx'> & { fx: Partial<SecurityWorld['fx']> };

/** The JSON of the owner's (or `who`'s) request, which must answer `status`. */
async function ok<T>(
  w: Setup,
  [method, url, payload]: ['GET' | 'POST' | 'DELETE', string, object?],
  status: number,
  who = w.owner,
): Promise<T> {
  const response = await w.app.inject({
    method,
    url,
    headers: { cookie: who.cookie },
    ...(payload ? { payload } : {}),
  });
  if (response.statusCode !== status) {
    throw new Error(`fixture: ${method} ${url} answered ${response.statusCode} ${response.body}`);
  }
  return (response.body ? response.json<T>() : undefined) as T;
}

let tickers = 0;
async function newToken(w: Setup): Promise<string> {
  const ticker = `SC${(tickers++).toString(36).toUpperCase().padStart(2, '0')}`;
  return (await ok<{ slug: string }>(w, ['POST', '/tokens', BODIES.token(ticker)], 201)).slug;
}

async function newProject(w: Setup, extra: object = {}): Promise<string> {
  const body = { ...BODIES.project, ...extra, tokenSlug: await newToken(w) };
  return (await ok<{ slug: string }>(w, ['POST', '/projects', body], 201)).slug;
}

async function newAgent(w: Setup): Promise<string> {
  const body = { ...BODIES.agent, name: `Security agent ${randomBytes(3).toString('hex')}` };
  return (await ok<{ slug: string }>(w, ['POST', '/agents', body], 201)).slug;
}

async function newWebhook(w: Setup, who: SignedIn): Promise<string> {
  const created = await ok<{ webhook: { id: string } }>(
    w,
    ['POST', '/me/webhooks', BODIES.webhook],
    201,
    who,
  );
  return created.webhook.id;
}

/** Factories, in an order where each finds the fixtures it builds on. */
const FIXTURES: Record<FixtureName, (w: Setup) => Promise<string>> = {
  token: newToken,
  agent: async (w) => {
    const slug = await newAgent(w);
    await ok(w, ['POST', `/agents/${slug}/publish`, BODIES.publish], 200);
    return slug;
  },
  draftAgent: newAgent,
  project: (w) => newProject(w),
  privateProject: async (w) => {
    await grantTier(w.ctx, w.owner.userId, 'max');
    return newProject(w, { private: true });
  },
  activeProject: (w) => newProject(w),
  run: async (w) => {
    const slug = w.fx.activeProject!;
    const { id } = await ok<{ id: string }>(w, ['GET', `/projects/${slug}`], 200);
    const { runId } = await ok<{ runId: string }>(w, ['POST', `/projects/${slug}/start`], 200);
    w.workflows.push(workflowIds.projectBuild(id, runId));
    return runId;
  },
  key: async (w) => (await createKey(w.app, w.owner, { name: 'fixture' })).id,
  webhook: (w) => newWebhook(w, w.owner),
  delivery: async (w) => {
    const url = `/me/webhooks/${w.fx.webhook!}/test`;
    const { delivery_id: id } = await ok<{ delivery_id: string }>(w, ['POST', url], 202);
    w.workflows.push(workflowIds.webhookDelivery(id));
    return id;
  },
  otherWebhook: (w) => newWebhook(w, w.other),
};

export async function createSecurityWorld(app: App, ctx: TestContext): Promise<SecurityWorld> {
  const owner = await signIn(app);
  const other = await signIn(app);
  const ownerKey = (await createKey(app, owner, { name: 'owner' })).key;
  const revoked = await createKey(app, owner, { name: 'revoked' });
  const session = await signIn(app, owner.account);
  const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json<Document>();
  const w: Setup = {
    app,
    ctx,
    owner,
    other,
    ownerKey,
    revokedKey: revoked.key,
    loggedOut: session.token,
    fx: {},
    served: new Map(operationsOf(document).map((operation) => [operation.label, operation])),
    workflows: [],
  };
  await ok(w, ['POST', '/auth/logout'], 204, session);
  await ok(w, ['DELETE', `/me/api-keys/${revoked.id}`], 204);
  for (const [name, factory] of Object.entries(FIXTURES)) {
    w.fx[name as FixtureName] = await factory(w);
  }
  return w as SecurityWorld;
}

/** Ends the workflows the fixtures started: before the context (and its client) closes. */
export async function endWorkflows(world: SecurityWorld | undefined): Promise<void> {
  for (const id of world?.workflows ?? []) {
    await world!.ctx.deps.temporal.workflow
      .getHandle(id)
      .terminate('route-security test over')
      .catch(() => undefined);
  }
}

// ---------------------------------------------------------------------------------------
// The cases of an operation

/** Who sends a request, which decides its headers (`headersOf`). */
type Sender =
  | 'nobody'
  | 'revoked key'
  | 'revoked key as Bearer'
  | 'logged-out session cookie'
  | 'logged-out session as Bearer'
  | 'internal token'
  | 'bot token'
  | 'wrong bot token'
  | 'owner session'
  | 'owner API key'
  | 'other user';

type Expected = { status: number; code: string } | { bot: 'unauthorized' } | { malformed: true };

export interface SecurityCase {
  name: string;
  sender: Sender;
  /** Path parameter values: a fixture, or raw text (a malformed id). */
  params?: Record<string, FixtureName | { raw: string }>;
  expected: Expected;
}

const UNAUTHENTICATED = { status: 401, code: 'unauthenticated' };
const INVALID_KEY = { status: 401, code: 'invalid_api_key' };
const FORBIDDEN = { status: 403, code: 'forbidden' };
const BOT_REFUSED = { bot: 'unauthorized' } as const;

const CREDENTIAL_CASES: Record<AuthKind, [Sender, Expected][]> = {
  none: [],
  // docs/decisions.md: a bad key or Bearer JWT is 401 even where no credential is needed.
  public: [
    ['revoked key', INVALID_KEY],
    ['revoked key as Bearer', INVALID_KEY],
    ['logged-out session as Bearer', UNAUTHENTICATED],
  ],
  user: [
    ['nobody', UNAUTHENTICATED],
    ['revoked key', INVALID_KEY],
    ['revoked key as Bearer', INVALID_KEY],
    ['logged-out session cookie', UNAUTHENTICATED],
    ['logged-out session as Bearer', UNAUTHENTICATED],
    ['internal token', UNAUTHENTICATED],
    ['bot token', UNAUTHENTICATED],
  ],
  internal: [
    ['nobody', UNAUTHENTICATED],
    ['owner session', FORBIDDEN],
    ['owner API key', FORBIDDEN],
    ['revoked key', INVALID_KEY],
    ['logged-out session as Bearer', UNAUTHENTICATED],
    ['bot token', UNAUTHENTICATED],
  ],
  bot: [
    ['nobody', BOT_REFUSED],
    ['wrong bot token', BOT_REFUSED],
    ['owner session', BOT_REFUSED],
    ['owner API key', BOT_REFUSED],
    ['internal token', BOT_REFUSED],
  ],
};

/** Malformed path parameters, as a client sends them (URL-encoded). */
const MALFORMED: Record<string, string> = {
  'not a UUID': 'not-a-uuid',
  'a UUID with a non-hex digit': '0000000g-0000-4000-8000-000000000000',
  'a UUID nobody has': '00000000-0000-4000-8000-000000000000',
  'an over-long slug': 'a'.repeat(300),
  'an encoded path traversal': '..%2F..%2Fetc%2Fpasswd',
  unicode: encodeURIComponent('déjà-vu-🚀'),
  'a NUL byte': '%00',
  SQL: encodeURIComponent("x' or '1'='1"),
};

function describeExpected(expected: Expected): string {
  if ('malformed' in expected) return '400 or 404';
  return 'bot' in expected ? '401 {"error":"unauthorized"}' : `${expected.status} ${expected.code}`;
}

/** Every case of an operation (also of one missing from `routes`: covered by default). */
export function casesOf(operation: Operation, route: RouteCase | undefined): SecurityCase[] {
  const cases: SecurityCase[] = CREDENTIAL_CASES[operation.auth].map(([sender, expected]) => ({
    name: `${sender}: ${describeExpected(expected)}`,
    sender,
    expected,
  }));
  if (operation.auth === 'none') return cases;
  for (const { what, params, status, code } of route?.foreign ?? []) {
    cases.push({
      name: `another user’s ${what}: ${status} ${code}`,
      sender: 'other user',
      ...(params ? { params } : {}),
      expected: { status, code },
    });
  }
  // A wildcard (`/me/payouts/{path}`) takes anything: nothing there can be malformed.
  const kinds = operation.params.map((param) => paramKind(operation.path, param));
  if (kinds.some((kind) => PARAM_FIXTURES[kind] === null)) return cases;
  for (const param of operation.params) {
    for (const [what, raw] of Object.entries(MALFORMED)) {
      cases.push({
        name: `{${param}} is ${what}: 400 or 404`,
        sender: 'owner session',
        params: { [param]: { raw } },
        expected: { malformed: true },
      });
    }
  }
  return cases;
}

/** Why an operation is not covered, or null: an entry in `routes`, a fixture per parameter. */
export function missingCases(operation: Operation, route: RouteCase | undefined): string | null {
  const where = 'test/integration/route-security.test.ts (ROUTES)';
  if (!route)
    return `${operation.label} (auth ${operation.auth}) has no entry: add one in ${where}`;
  if ((operation.auth === 'public' || operation.auth === 'none') && !route.open) {
    return `${operation.label} needs no credential: say why (\`open\`) in ${where}`;
  }
  const kinds = operation.params.map((param) => paramKind(operation.path, param));
  const unknown = kinds.find((kind) => !(kind in PARAM_FIXTURES));
  if (unknown === undefined) return null;
  return (
    `${operation.label}: no fixture for ${unknown}: add a fixture in ` +
    'test/helpers/security-cases.ts (PARAM_FIXTURES, FIXTURES)'
  );
}

// ---------------------------------------------------------------------------------------
// Running a case

/** Written by any keyed request, refused or not (usage), or never by a request. */
const UNTRACKED_TABLES = new Set(['api_key_usage', 'api_key_usage_hourly', 'mikro_orm_migrations']);
const UNTRACKED_COLUMNS: Record<string, string[]> = { api_keys: ['last_used_at'] };
const fingerprintQueries = new WeakMap<TestContext, string>();

/** Each table's row count and a digest of its rows, by table. */
export async function fingerprint(ctx: TestContext): Promise<Record<string, string>> {
  let query = fingerprintQueries.get(ctx);
  if (!query) {
    const tables = await ctx.sql<{ name: string }>(
      `select table_name as name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
    );
    query = tables
      .filter(({ name }) => !UNTRACKED_TABLES.has(name))
      .map(({ name }) => {
        const dropped = (UNTRACKED_COLUMNS[name] ?? []).map((column) => ` - '${column}'`);
        const row = `(to_jsonb(t)${dropped.join('')})::text`;
        return `select '${name}' as name, count(*) || ':' ||
                  md5(coalesce(string_agg(${row}, '|' order by ${row}), '')) as digest
                  from "${name}" t`;
      })
      .join('\nunion all\n');
    fingerprintQueries.set(ctx, query);
  }
  const rows = await ctx.sql<{ name: string; digest: string }>(query);
  return Object.fromEntries(rows.map((row) => [row.name, row.digest]));
}

function headersOf(w: SecurityWorld, sender: Sender): Record<string, string> {
  const headers: Record<Sender, Record<string, string>> = {
    nobody: {},
    'revoked key': { 'x-api-key': w.revokedKey },
    'revoked key as Bearer': { authorization: `Bearer ${w.revokedKey}` },
    'logged-out session cookie': { cookie: `svc_session=${w.loggedOut}` },
    'logged-out session as Bearer': { authorization: `Bearer ${w.loggedOut}` },
    'internal token': { authorization: `Bearer ${INTERNAL_TOKEN}` },
    'bot token': { 'x-service-bot-token': BOT_TOKEN },
    'wrong bot token': { 'x-service-bot-token': `${BOT_TOKEN}-not` },
    'owner session': { cookie: w.owner.cookie },
    'owner API key': { 'x-api-key': w.ownerKey },
    'other user': { cookie: w.other.cookie },
  };
  return headers[sender];
}

function urlOf(
  w: SecurityWorld,
  operation: Operation,
  route: RouteCase | undefined,
  c: SecurityCase,
) {
  return operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value =
      c.params?.[name] ?? route?.params?.[name] ?? PARAM_FIXTURES[paramKind(operation.path, name)];
    if (value === null || value === undefined) return 'x';
    return typeof value === 'string' ? encodeURIComponent(w.fx[value]) : value.raw;
  });
}

function checkDocumented(served: Operation, status: number, code: string, request: string) {
  const documented = served.errors[String(status)] ?? [];
  if (documented.includes(code)) return;
  throw new Error(
    `${request} answered ${status} ${code}, which the document does not list for ` +
      `${served.label} (at ${status} it lists: ${documented.join(', ') || 'nothing'})`,
  );
}

/** The answer is the expected refusal, exactly, and the operation documents it. */
function checkAnswer(
  served: Operation,
  expected: Expected,
  response: Awaited<ReturnType<App['inject']>>,
  request: string,
): void {
  const refused = `${request} answered ${response.statusCode} ${response.body.slice(0, 300)}`;
  const wrong = new Error(`${refused}, not ${describeExpected(expected)}`);
  if ('bot' in expected) {
    if (response.statusCode !== 401 || response.body !== '{"error":"unauthorized"}') throw wrong;
    return checkDocumented(served, 401, 'unauthorized', request);
  }
  const status = response.statusCode;
  if ('malformed' in expected ? status !== 400 && status !== 404 : status !== expected.status) {
    throw wrong;
  }
  let code: unknown;
  try {
    code = response.json<{ error?: { code?: unknown } }>().error?.code;
  } catch {
    throw new Error(`${refused}: not the JSON error envelope`);
  }
  if ('code' in expected && code !== expected.code) throw wrong;
  expectError(response, status, String(code));
  checkDocumented(served, status, String(code), request);
}

/** Sends the case's request, checks the answer and that a refused write wrote nothing. */
export async function runCase(
  w: SecurityWorld,
  operation: Operation,
  route: RouteCase | undefined,
  c: SecurityCase,
): Promise<void> {
  const served = w.served.get(operation.label);
  if (!served) throw new Error(`${operation.label} is not in the document this app serves`);
  const url = urlOf(w, operation, route, c);
  const body = route?.body?.(w);
  const before = operation.method === 'GET' ? null : await fingerprint(w.ctx);
  const response = await w.app.inject({
    method: operation.method as 'GET',
    url,
    headers: headersOf(w, c.sender),
    ...(body === undefined ? {} : { payload: body as object }),
  });
  const request = `${operation.method} ${url.slice(0, 120)} (${c.sender})`;
  checkAnswer(served, c.expected, response, request);
  if (!before) return;
  const after = await fingerprint(w.ctx);
  const changed = Object.keys(after).filter((table) => after[table] !== before[table]);
  if (changed.length > 0)
    throw new Error(`${request} was refused, yet wrote to ${changed.join(', ')}`);
}
