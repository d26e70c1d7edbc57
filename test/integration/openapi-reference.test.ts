import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { ERROR_DOCS, ERROR_STATUS } from '../../shared/errors';
import { useTestApp } from '../helpers/context';

/**
 * The OpenAPI document as a reference people can use (api/openapi/): every
 * operation described, with an example for each body and response that validates against its
 * own schema, a response per status with its error codes, and a document @redocly/openapi-core's
 * `recommended` rules find no error in.
 */

const test = useTestApp();

type Json = Record<string, any>;
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

let document: Json;
beforeAll(async () => {
  const response = await test.app.inject({ method: 'GET', url: '/openapi.json' });
  expect(response.statusCode).toBe(200);
  document = response.json();
});

function operations(): { id: string; path: string; method: string; operation: Json }[] {
  return Object.entries(document.paths as Record<string, Json>).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({
      id: `${method.toUpperCase()} ${path}`,
      path,
      method,
      operation: item[method] as Json,
    })),
  );
}

/** Every example in the document, with the schema it must validate against. */
function examples(): { where: string; schema: unknown; value: unknown }[] {
  const found: { where: string; schema: unknown; value: unknown }[] = [];
  const fromMedia = (where: string, media: Json | undefined) => {
    if (!media?.schema) return;
    if (media.example !== undefined)
      found.push({ where, schema: media.schema, value: media.example });
    for (const [name, example] of Object.entries((media.examples ?? {}) as Record<string, Json>)) {
      found.push({ where: `${where} (${name})`, schema: media.schema, value: example.value });
    }
  };
  for (const { id, operation } of operations()) {
    for (const parameter of (operation.parameters ?? []) as Json[]) {
      if (parameter.example !== undefined) {
        found.push({
          where: `${id} parameter ${parameter.name}`,
          schema: parameter.schema,
          value: parameter.example,
        });
      }
    }
    for (const [type, media] of Object.entries((operation.requestBody?.content ?? {}) as Json)) {
      fromMedia(`${id} request ${type}`, media);
    }
    for (const [status, response] of Object.entries(operation.responses as Record<string, Json>)) {
      for (const [type, media] of Object.entries((response.content ?? {}) as Json)) {
        fromMedia(`${id} ${status} ${type}`, media);
      }
    }
  }
  return found;
}

const KNOWN_WARNINGS = ['info-license', 'operation-2xx-response'];

const COMPONENTS = 'https://openapi.local/components/schemas/';

/** The schema with its references pointed at the components registered with Ajv. */
function withAbsoluteRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withAbsoluteRefs);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string'
        ? value.replace('#/components/schemas/', COMPONENTS)
        : withAbsoluteRefs(value),
    ]),
  );
}

describe('the OpenAPI document', () => {
  it('has no error under @redocly/openapi-core’s recommended rules', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'openapi-lint-'));
    const file = join(dir, 'openapi.json');
    try {
      await writeFile(file, JSON.stringify(document));
      // Redocly ships ESM only: it runs in a plain Node process, as a developer would run it.
      const script = `
        import { createRequire } from 'node:module';
        import { readFileSync } from 'node:fs';
        const require = createRequire(process.cwd() + '/package.json');
        const core = await import(require.resolve('@redocly/openapi-core'));
        const config = await core.createConfig({ extends: ['recommended'] });
        const text = readFileSync(process.argv[1], 'utf8');
        const problems = await core.lintDocument({
          document: { source: new core.Source(process.argv[1], text), parsed: JSON.parse(text) },
          config,
          externalRefResolver: new core.BaseResolver(),
        });
        console.log(JSON.stringify(problems.map((p) => ({
          severity: p.severity, rule: p.ruleId, message: p.message,
          at: p.location?.[0]?.pointer,
        }))));`;
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['--input-type=module', '-e', script, file],
        { cwd: join(__dirname, '..', '..'), timeout: 50_000 },
      );
      const problems = JSON.parse(stdout) as { severity: string; rule: string; at: string }[];
      expect(problems.filter((problem) => problem.severity === 'error')).toEqual([]);
      // Warnings may stay: today only the removed /me/payouts (410, no 2XX) and the license
      // an UNLICENSED service does not have.
      const warnings = new Set(problems.map((problem) => problem.rule));
      expect([...warnings].filter((rule) => !KNOWN_WARNINGS.includes(rule))).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('describes every operation: summary, description, tags, operationId', () => {
    const missing: string[] = [];
    const ids = new Set<string>();
    for (const { id, operation } of operations()) {
      for (const field of ['summary', 'description', 'operationId'] as const) {
        if (typeof operation[field] !== 'string' || operation[field].trim() === '') {
          missing.push(`${id}: ${field}`);
        }
      }
      if (!Array.isArray(operation.tags) || operation.tags.length === 0)
        missing.push(`${id}: tags`);
      expect(ids.has(operation.operationId)).toBe(false);
      ids.add(operation.operationId);
    }
    expect(missing).toEqual([]);
    const tags = new Set((document.tags as { name: string }[]).map((tag) => tag.name));
    for (const { operation } of operations()) {
      for (const tag of operation.tags as string[]) expect(tags).toContain(tag);
    }
  });

  it('names every response: a description per status, never "Default Response"', () => {
    const unnamed: string[] = [];
    for (const { id, operation } of operations()) {
      for (const [status, response] of Object.entries(
        operation.responses as Record<string, Json>,
      )) {
        if (!response.description || response.description === 'Default Response') {
          unnamed.push(`${id} ${status}`);
        }
      }
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['4XX', '5XX']));
    }
    expect(unnamed).toEqual([]);
  });

  it('lists the error codes of each status, each with an example body of its code', () => {
    for (const { id, path, operation } of operations()) {
      const bot = path.startsWith('/api/v1/');
      for (const [status, response] of Object.entries(
        operation.responses as Record<string, Json>,
      )) {
        if (!/^[45]\d\d$/.test(status)) continue;
        const media = response.content?.['application/json'];
        expect({ id, status, schema: media?.schema?.$ref }).toEqual({
          id,
          status,
          schema: `#/components/schemas/${bot ? 'BotError' : 'ErrorEnvelope'}`,
        });
        const named = Object.entries((media.examples ?? {}) as Record<string, Json>);
        expect({ id, status, examples: named.length > 0 }).toEqual({ id, status, examples: true });
        for (const [code, example] of named) {
          expect(response.description).toContain(`\`${code}\``);
          if (bot) {
            expect(example.value.error).toBe(code);
            continue;
          }
          // The status a code is documented under is the one the API answers it with.
          expect({ id, code, status: ERROR_STATUS[code as keyof typeof ERROR_STATUS] }).toEqual({
            id,
            code,
            status: Number(status),
          });
          expect(example.value).toEqual({
            error: { code, message: ERROR_DOCS[code as keyof typeof ERROR_DOCS].example },
          });
        }
      }
    }
  });

  it('documents the generic errors by what a route is', () => {
    const statuses = (path: string, method: string) =>
      Object.keys(document.paths[path][method].responses);
    // A user route with input, counted, idempotent.
    expect(statuses('/agents/{slug}/invoke', 'post')).toEqual(
      expect.arrayContaining([
        '200',
        '400',
        '401',
        '402',
        '404',
        '409',
        '422',
        '429',
        '500',
        '502',
        '503',
        '504',
      ]),
    );
    // No credentials, no rate limit: only the 500.
    expect(statuses('/healthz', 'get')).toEqual(['200', '500', '4XX', '5XX']);
    expect(document.paths['/healthz'].get.security).toEqual([]);
    // A public list: 401 only for a bad credential, the cursor's 400.
    const tokens = document.paths['/tokens'].get.responses;
    expect(tokens['401'].description).toMatch(/Anonymous calls are allowed/);
    expect(Object.keys(tokens['400'].content['application/json'].examples)).toEqual(
      expect.arrayContaining(['invalid_request', 'invalid_cursor']),
    );
    expect(tokens['429'].headers).toEqual(
      expect.objectContaining({ 'Retry-After': expect.anything() }),
    );
    // Writes take Idempotency-Key.
    const invoke = document.paths['/agents/{slug}/invoke'].post;
    expect(invoke.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ in: 'header', name: 'Idempotency-Key' })]),
    );
  });

  it('has an example for every JSON request body and success response', () => {
    const missing: string[] = [];
    for (const { id, operation } of operations()) {
      const body = operation.requestBody?.content?.['application/json'];
      if (body && !body.examples && body.example === undefined) missing.push(`${id} request`);
      for (const [status, response] of Object.entries(
        operation.responses as Record<string, Json>,
      )) {
        const media = response.content?.['application/json'];
        if (media && !media.examples && media.example === undefined) {
          missing.push(`${id} ${status}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('validates every example against its own schema (JSON Schema 2020-12)', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
    addFormats(ajv);
    for (const [name, schema] of Object.entries(document.components.schemas as Json)) {
      ajv.addSchema({ ...(withAbsoluteRefs(schema) as Json), $id: `${COMPONENTS}${name}` });
    }
    const invalid: string[] = [];
    const all = examples();
    for (const { where, schema, value } of all) {
      const validate = ajv.compile(withAbsoluteRefs(schema) as Json);
      if (!validate(value)) {
        invalid.push(`${where}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(value)}`);
      }
    }
    expect(invalid).toEqual([]);
    expect(all.length).toBeGreaterThan(300);
  });

  it('has no placeholder values: no ±(2^53 − 1) bounds or values, no "string"', () => {
    const text = JSON.stringify(document);
    expect(text).not.toContain(String(Number.MAX_SAFE_INTEGER));
    const placeholders = examples()
      .map(({ where, value }) => ({ where, text: JSON.stringify(value) }))
      .filter(({ text }) => /"string"|9007199254740991/.test(text));
    expect(placeholders).toEqual([]);
  });

  it('describes every security scheme', () => {
    const schemes = document.components.securitySchemes as Record<string, Json>;
    expect(Object.keys(schemes).sort()).toEqual([
      'apiKey',
      'bearer',
      'botToken',
      'internalToken',
      'session',
    ]);
    for (const [name, scheme] of Object.entries(schemes)) {
      expect({ name, described: (scheme.description ?? '').length > 20 }).toEqual({
        name,
        described: true,
      });
    }
  });

  it('points at the guides from its description', () => {
    for (const guide of [
      'quick-start',
      'errors',
      'pagination',
      'idempotency',
      'agent-endpoint',
      'webhooks',
      'sse',
    ]) {
      expect(document.info.description).toContain(`docs/guides/${guide}.md`);
    }
  });
});

describe('the reference at /docs (Scalar)', () => {
  async function page() {
    const redirect = await test.app.inject({ method: 'GET', url: '/docs' });
    expect(redirect.statusCode).toBe(301);
    expect(redirect.headers.location).toBe('/docs/');
    return test.app.inject({ method: 'GET', url: '/docs/' });
  }

  it('is served by this server alone: no script, style or font from elsewhere', async () => {
    const response = await page();
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
    expect(response.body).toContain('Scalar.createApiReference');
    expect(response.body).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(response.body).not.toMatch(/jsdelivr|unpkg|fonts\.scalar\.com/);
    const config = /createApiReference\('#app', (\{[\s\S]*?\})\)/.exec(response.body)?.[1];
    expect(JSON.parse(config!)).toMatchObject({ url: '/openapi.json', withDefaultFonts: false });

    const csp = String(response.headers['content-security-policy']);
    expect(csp).toMatch(/^default-src 'none'; script-src 'self' 'sha256-/);
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toMatch(/https?:|\*|unsafe-eval/);
  });

  it('serves the bundle itself, gzipped when asked, under the same CSP', async () => {
    const csp = (await page()).headers['content-security-policy'];
    const plain = await test.app.inject({ method: 'GET', url: '/docs/js/scalar.js' });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-type']).toMatch(/javascript/);
    expect(plain.body.length).toBeGreaterThan(1_000_000);
    expect(plain.headers['content-security-policy']).toBe(csp);
    expect(plain.headers['content-encoding']).toBeUndefined();

    const gzipped = await test.app.inject({
      method: 'GET',
      url: '/docs/js/scalar.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(gzipped.statusCode).toBe(200);
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(String(gzipped.headers.vary)).toMatch(/accept-encoding/i);
    expect(Number(gzipped.headers['content-length'])).toBeLessThan(plain.body.length / 2);
  });

  it('reads the document from /openapi.json and adds no copy of its own', async () => {
    for (const url of ['/docs/openapi.json', '/docs/openapi.yaml']) {
      expect((await test.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    }
  });
});
