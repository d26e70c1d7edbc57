import { randomUUID } from 'node:crypto';
import { UNSTORABLE_TEXT, unstorableTextPath } from '../../shared/domain/text';
import { createKey, signIn, type SignedIn } from '../helpers/auth';
import { UNLIMITED_RATES, useTestApp } from '../helpers/context';

/**
 * Text PostgreSQL cannot store (NUL, unpaired surrogates) is a 400 naming the field on every
 * route, read off the OpenAPI document so new routes are covered too: every string property
 * of every JSON body, and every string query parameter. Before the check, the probe found a
 * NUL gave a 500 on ten write routes.
 */

const INTERNAL_TOKEN = 'internal-token-for-text-tests-0123456789';
const BOT_TOKEN = 'bot-token-for-text-tests-0123456789';
const test = useTestApp({
  env: {
    ...UNLIMITED_RATES,
    INTERNAL_TOKENS: INTERNAL_TOKEN,
    BOT_TOKENS: BOT_TOKEN,
  },
});

type Schema = {
  type?: string | string[];
  format?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  $ref?: string;
};
type Parameter = { name: string; in: string; schema?: Schema; example?: unknown };
type Operation = {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
};
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
};

const BAD_VALUES = ['a\u0000b', 'a\ud800b', '\udc00'];

function resolve(document: Document, schema: Schema | undefined): Schema | undefined {
  if (schema?.$ref) {
    const name = schema.$ref.split('/').pop() ?? '';
    return resolve(document, document.components?.schemas?.[name]);
  }
  return schema;
}

function acceptsString(document: Document, schema: Schema | undefined): boolean {
  const resolved = resolve(document, schema);
  if (!resolved) return false;
  const types = Array.isArray(resolved.type) ? resolved.type : [resolved.type];
  if (types.includes('string')) return true;
  return [...(resolved.anyOf ?? []), ...(resolved.oneOf ?? [])].some((branch) =>
    acceptsString(document, branch),
  );
}

/** Every path to a string property (objects within objects, one level of arrays). */
function stringFields(document: Document, schema: Schema | undefined, prefix: string[] = []) {
  const resolved = resolve(document, schema);
  const fields: string[][] = [];
  for (const [name, property] of Object.entries(resolved?.properties ?? {})) {
    const inner = resolve(document, property);
    if (acceptsString(document, inner)) fields.push([...prefix, name]);
    if (inner?.properties) fields.push(...stringFields(document, inner, [...prefix, name]));
  }
  return fields;
}

function bodyWith(path: string[], value: string): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  let at = body;
  path.forEach((name, index) => {
    if (index === path.length - 1) at[name] = value;
    else at = at[name] = {};
  });
  return body;
}

/** Path parameters that pass their own schema, so the request reaches the body's check. */
function concrete(path: string, operation: Operation): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const parameter = operation.parameters?.find((p) => p.in === 'path' && p.name === name);
    // A parameter with a shape of its own (a Matrix room id) is given its documented example.
    if (typeof parameter?.example === 'string') return encodeURIComponent(parameter.example);
    return parameter?.schema?.format === 'uuid' ? randomUUID() : 'abc-1';
  });
}

let session: SignedIn;
let document: Document;
beforeAll(async () => {
  session = await signIn(test.app);
  await createKey(test.app, session);
  document = (await test.app.inject({ method: 'GET', url: '/openapi.json' })).json<Document>();
});

function headersFor(path: string): Record<string, string> {
  if (path.startsWith('/internal/')) return { authorization: `Bearer ${INTERNAL_TOKEN}` };
  if (path.startsWith('/api/v1/')) return { 'x-service-bot-token': BOT_TOKEN };
  return { cookie: session.cookie };
}

/** The 400's explanation: the main envelope's message, or the bot gateway's detail. */
function invalidMessageOf(response: { json(): unknown }): string | undefined {
  const body = response.json() as { error?: { message?: string } | string; detail?: string };
  if (typeof body.error === 'string')
    return body.error === 'invalid_body' ? body.detail : undefined;
  return body.error?.message;
}

describe('text PostgreSQL cannot store', () => {
  it('is found anywhere in a JSON value, keys included', () => {
    expect(unstorableTextPath({ a: [1, { b: 'x\u0000' }] })).toEqual(['a', 1, 'b']);
    expect(unstorableTextPath({ 'k\u0000': 1 })).toEqual(['k\u0000']);
    expect(unstorableTextPath(['ok', '\ud83d\ude00', 'lone \ud83d'])).toEqual([2]);
    expect(unstorableTextPath({ a: 'fine \ud83d\ude00', b: null, c: 3, d: true })).toBeNull();
  });

  it('is a 400 naming the field, in every string field of every JSON body', async () => {
    let checked = 0;
    const missed: string[] = [];
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const schema = operation.requestBody?.content?.['application/json']?.schema;
        for (const field of stringFields(document, schema)) {
          for (const value of BAD_VALUES) {
            const response = await test.app.inject({
              method: method.toUpperCase() as 'POST',
              url: concrete(path, operation),
              headers: headersFor(path),
              payload: bodyWith(field, value),
            });
            checked++;
            const expected = {
              code: 'invalid_request',
              message: `${field.join('.')}: ${UNSTORABLE_TEXT}`,
            };
            if (response.statusCode !== 400 || invalidMessageOf(response) !== expected.message) {
              missed.push(
                `${method.toUpperCase()} ${path} ${field.join('.')}: ${response.statusCode} ${response.body.slice(0, 120)}`,
              );
            }
          }
        }
      }
    }
    expect(missed).toEqual([]);
    // The ten write routes the probe named have string fields; far more are covered.
    expect(checked).toBeGreaterThan(3 * 10);
  });

  it('is a 400 naming the parameter, in every string query parameter', async () => {
    let checked = 0;
    const missed: string[] = [];
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        for (const parameter of operation.parameters ?? []) {
          if (parameter.in !== 'query' || !acceptsString(document, parameter.schema)) continue;
          const response = await test.app.inject({
            method: method.toUpperCase() as 'GET',
            url: `${concrete(path, operation)}?${parameter.name}=a%00b`,
            headers: headersFor(path),
          });
          checked++;
          if (
            response.statusCode !== 400 ||
            invalidMessageOf(response) !== `${parameter.name}: ${UNSTORABLE_TEXT}`
          ) {
            missed.push(
              `${method.toUpperCase()} ${path} ?${parameter.name}: ${response.statusCode} ${response.body.slice(0, 120)}`,
            );
          }
        }
      }
    }
    expect(missed).toEqual([]);
    expect(checked).toBeGreaterThan(5);
  });

  it('never reaches the database: the named write routes store nothing', async () => {
    const response = await test.app.inject({
      method: 'POST',
      url: '/me/api-keys',
      headers: { cookie: session.cookie },
      payload: { name: 'a\u0000b' },
    });
    expect(response.statusCode).toBe(400);
    const keys = await test.ctx.sql<{ n: number }>(
      'select count(*)::int as n from api_keys where user_id = $1',
      [session.userId],
    );
    expect(keys[0]?.n).toBe(1); // the key made in beforeAll, nothing else
  });
});
