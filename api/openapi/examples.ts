import type { Subject } from './example-values';
import { exampleOf } from './example-builder';
import { componentOf, type Json, type OpenApiDocument, type Schema } from './schema';

/**
 * Examples for every request body, JSON response and parameter of the OpenAPI document, so a
 * reader (and a renderer's "Try it") sees values like the API's own instead of what a
 * renderer makes up from a schema (`"string"`, `0`, or ±(2^53 − 1) for an unbounded integer).
 *
 * An example a schema gives (`.meta({ examples: [...] })` on a zod schema, at any depth) is
 * used as it is. Anything else is built from the schema: its `const`, `enum` or `default`, else
 * a value for the field's name in what the operation is about (an agent's `slug` is
 * `research-assistant`, a token's `atlas`), else one for its format. Every example must
 * validate against its own schema: test/integration/openapi-reference.test.ts checks them all.
 */

/** The subject of an operation, from its path. */
export function subjectOfPath(path: string): Subject {
  const rules: [RegExp, Subject][] = [
    [/^\/me\/api-keys/, 'key'],
    [/^\/me\/webhooks\/\{id\}\/deliveries/, 'delivery'],
    [/^\/me\/webhooks/, 'webhook'],
    [/^\/(me\/)?projects/, 'project'],
    [/^\/(me\/)?agents|^\/marketplace|^\/search/, 'agent'],
    [/^\/tokens/, 'token'],
    [/^\/chains/, 'chain'],
    [/^\/ledger|^\/internal\/flow/, 'ledger'],
    [/^\/(me\/)?subscription|^\/flow\/topups|^\/payments/, 'subscription'],
    [/^\/me\/notifications/, 'notification'],
    [/^\/me\/payouts/, 'payout'],
    [/^\/p\//, 'project'],
    [/^\/(auth|me)\b/, 'user'],
  ];
  for (const [pattern, subject] of rules) if (pattern.test(path)) return subject;
  return 'other';
}

type Media = Schema & { schema?: unknown; example?: unknown; examples?: Record<string, Schema> };

/** Media-level `examples` (named, with a summary) for a JSON body. */
function exampleMedia(
  document: OpenApiDocument,
  media: Media,
  subject: Subject,
  summary: string,
): void {
  if (media.examples && Object.keys(media.examples).length > 0) {
    for (const example of Object.values(media.examples)) example.summary ??= summary;
    return;
  }
  if (media.example !== undefined) {
    media.examples = { example: { summary, value: media.example } };
    delete media.example;
    return;
  }
  let schema = media.schema as Schema | undefined;
  if (typeof schema?.$ref === 'string') schema = componentOf(document, schema.$ref)?.[1];
  const given = Array.isArray(schema?.examples) ? (schema.examples as Json[]) : [];
  if (given.length > 1) {
    media.examples = Object.fromEntries(
      given.map((value, i) => [i === 0 ? 'example' : `example${i + 1}`, { summary, value }]),
    );
    return;
  }
  media.examples = { example: { summary, value: exampleOf(document, media.schema, subject) } };
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** Fills in every example the document lacks (parameters, request bodies, responses). */
export function addExamples(document: OpenApiDocument): void {
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    const subject = subjectOfPath(path);
    for (const method of METHODS) {
      const operation = item[method] as Schema | undefined;
      if (!operation) continue;
      for (const parameter of (operation.parameters as Schema[] | undefined) ?? []) {
        if (parameter.example !== undefined || parameter.examples !== undefined) continue;
        const schema = parameter.schema as Schema | undefined;
        if (!schema) continue;
        const given = Array.isArray(schema.examples) ? (schema.examples as Json[]) : [];
        parameter.example =
          given[0] ?? exampleOf(document, schema, subject, String(parameter.name));
      }
      const body = (operation.requestBody as Schema | undefined)?.content as
        Record<string, Media> | undefined;
      const json = body?.['application/json'];
      if (json) exampleMedia(document, json, subject, 'A request');
      const responses = (operation.responses ?? {}) as Record<string, Schema>;
      for (const [status, response] of Object.entries(responses)) {
        const content = response.content as Record<string, Media> | undefined;
        if (!content) continue;
        for (const [type, media] of Object.entries(content)) {
          if (type === 'application/json') {
            exampleMedia(document, media, subject, `${status} response`);
          } else if (media.example === undefined && !media.examples) {
            const schema = media.schema as Schema | undefined;
            const given = Array.isArray(schema?.examples) ? (schema.examples as Json[]) : [];
            if (given.length > 0) media.examples = { example: { value: given[0]! } };
          }
        }
      }
    }
  }
}
