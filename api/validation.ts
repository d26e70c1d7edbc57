import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler as zodValidatorCompiler } from 'fastify-type-provider-zod';
import type { ZodType } from 'zod';
import { AppError } from '../shared/errors';
import { fieldPath, UNSTORABLE_TEXT, unstorableTextPath } from '../shared/domain/text';

/**
 * Request validation: zod through fastify-type-provider-zod, behind one check that every
 * route gets, present and future: a string (or key) anywhere in the body or the query that
 * PostgreSQL cannot store (`shared/domain/text.ts`) is a 400
 * `invalid_request` naming the field, before the route's own schema runs and long before a
 * write could fail on it.
 */
export const validatorCompiler: FastifySchemaCompiler<ZodType> = (route) => {
  const validate = zodValidatorCompiler(route);
  // Path parameters are identifiers to look up, never stored: an impossible one (NUL
  // included) is the route's plain 404 (docs/decisions.md "Wire"), which every lookup
  // already guards. Headers cannot carry NUL at all.
  if (route.httpPart === 'params' || route.httpPart === 'headers') return validate;
  const part = route.httpPart === 'querystring' ? 'query' : 'body';
  return (data) => {
    const path = unstorableTextPath(data);
    if (path) {
      return {
        error: new AppError('invalid_request', `${fieldPath(path, part)}: ${UNSTORABLE_TEXT}`),
      };
    }
    return validate(data);
  };
};
