import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler as zodValidatorCompiler } from 'fastify-type-provider-zod';
import type { ZodType } from 'zod';
import { AppError } from '../shared/errors';
import { fieldPath, UNSTORABLE_TEXT, unstorableTextPath } from '../shared/domain/text';

/**
 * Request validation: zod through fastify-type-provider-zod, behind one check that every
 * route gets, present and future: a string (or key) anywhere in the body, query or path
 * parameters that PostgreSQL cannot store (`shared/domain/text.ts`) is a 400
 * `invalid_request` naming the field, before the route's own schema runs and long before a
 * write could fail on it.
 */
export const validatorCompiler: FastifySchemaCompiler<ZodType> = (route) => {
  const validate = zodValidatorCompiler(route);
  const part = route.httpPart === 'querystring' ? 'query' : (route.httpPart ?? 'body');
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
