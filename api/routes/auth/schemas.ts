import { z } from 'zod';
import { isoTime } from '../../wire';

/** Wire shapes of sign-in (SIWE and Matrix), account linking and the current user. */

const EXAMPLE_ADDRESS = '0x5b38da6a701c568545dcfcb03fcb875f56beddc4';
const EXAMPLE_MATRIX_ID = '@alice:matrix.org';

const userId = z.number().int().describe('The platform user id');
const optionalAddress = z
  .string()
  .nullable()
  .describe('The linked wallet, lowercase; null for an account without a wallet');
const matrixUserId = z
  .string()
  .nullable()
  .describe(
    'The linked Matrix account (`@localpart:server`, as its homeserver names it); null when ' +
      'none is linked',
  );

export const verifyBody = z.strictObject({
  message: z.string().min(1).max(4096, { error: 'must be at most 4096 characters' }),
  signature: z
    .string()
    .max(20_000)
    .regex(/^0x[0-9a-fA-F]+$/, { error: 'must be a 0x-prefixed hex string' }),
});

export const verifyResultSchema = z
  .object({
    user: z.object({
      id: userId,
      address: z.string().describe('The wallet that signed the message, lowercase'),
      matrixUserId,
    }),
  })
  .meta({
    id: 'SiweLogin',
    example: { user: { id: 42, address: EXAMPLE_ADDRESS, matrixUserId: null } },
  });

export const matrixLoginBody = z.strictObject({
  openidToken: z
    .string({ error: 'is required' })
    .min(1, { error: 'must not be empty' })
    .max(1024, { error: 'must be at most 1024 characters' })
    .describe(
      'An OpenID token of the Matrix account: `access_token` from ' +
        '`POST /_matrix/client/v3/user/{userId}/openid/request_token` on its homeserver',
    )
    .meta({ example: 'kHYYZvzPLlDUtPoJhpYnYkzG' }),
  homeserver: z
    .string({ error: 'is required' })
    .min(1, { error: 'must not be empty' })
    .max(255, { error: 'must be at most 255 characters' })
    .describe(
      'The `matrix_server_name` of that same answer; it must be one of the homeservers this ' +
        'deployment accepts (MATRIX_LOGIN_HOMESERVERS), compared case-insensitively',
    )
    .meta({ example: 'matrix.org' }),
});

export const matrixLoginResultSchema = z
  .object({
    user: z.object({
      id: userId,
      address: optionalAddress,
      matrixUserId: z.string().describe('The Matrix account the token was verified for'),
    }),
  })
  .meta({
    id: 'MatrixLogin',
    example: { user: { id: 42, address: null, matrixUserId: EXAMPLE_MATRIX_ID } },
  });

export const meSchema = z
  .object({
    id: userId,
    address: optionalAddress,
    matrixUserId,
    createdAt: isoTime,
  })
  .meta({
    id: 'Me',
    example: {
      id: 42,
      address: EXAMPLE_ADDRESS,
      matrixUserId: EXAMPLE_MATRIX_ID,
      createdAt: '2026-11-24T10:00:00.000Z',
    },
  });

export const nonceSchema = z.object({ nonce: z.string(), expiresAt: isoTime });

export const loggedOutResponse = z.null().describe('Logged out');

export type VerifyInput = z.output<typeof verifyBody>;
export type MatrixLoginInput = z.output<typeof matrixLoginBody>;
