import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { verifyMessage, type Hex } from 'viem';
import { parseSiweMessage, validateSiweMessage } from 'viem/siwe';
import type { ChainClients } from '../../../shared/chain/clients';
import {
  AppError,
  DependencyUnavailableError,
  REDIS_RETRY_AFTER_SECONDS,
} from '../../../shared/errors';
import type { Logger } from '../../../shared/logger';

/**
 * Sign-In with Ethereum (EIP-4361, docs/spec/contract.md §3). Nonces live in Redis for 10 minutes and
 * are consumed atomically, so a nonce logs in at most once across every API instance.
 * Without Redis (down, or silent past the command timeout) sign-in answers 503: a nonce can
 * be neither issued nor checked anywhere else.
 */

export const NONCE_TTL_SECONDS = 600;
/** Tolerated clock skew between the wallet and us for `issuedAt` and `notBefore`. */
const CLOCK_SKEW_MS = 60_000;

const nonceKey = (nonce: string) => `siwe:nonce:${nonce}`;

export interface SiweContext {
  redis: Redis;
  chains: ChainClients;
  domain: string;
  logger: Logger;
}

/** One nonce command; its failure is 503 `service_unavailable`, not a 500. */
async function nonceStore<T>(context: Pick<SiweContext, 'logger'>, command: Promise<T>) {
  try {
    return await command;
  } catch (err) {
    context.logger.error({ err }, 'siwe: nonce store unavailable');
    throw new DependencyUnavailableError(
      'redis',
      'Sign-in is unavailable; retry shortly',
      REDIS_RETRY_AFTER_SECONDS,
      err,
    );
  }
}

export async function issueNonce(context: Pick<SiweContext, 'redis' | 'logger'>, now = new Date()) {
  // 128 random bits, alphanumeric as EIP-4361 requires.
  const nonce = randomBytes(16).toString('hex');
  await nonceStore(context, context.redis.set(nonceKey(nonce), '1', 'EX', NONCE_TTL_SECONDS, 'NX'));
  return { nonce, expiresAt: new Date(now.getTime() + NONCE_TTL_SECONDS * 1000) };
}

function invalid(message: string): never {
  throw new AppError('siwe_invalid', message);
}

/** Checks the message's fields against this deployment and the clock; returns them. */
function checkFields(context: SiweContext, text: string, now: Date) {
  const fields = parseSiweMessage(text);
  const { domain, address, uri, version, chainId, nonce, issuedAt } = fields;
  if (!domain || !address || !uri || !version || chainId === undefined || !nonce || !issuedAt) {
    invalid('message: is not a complete SIWE message (EIP-4361)');
  }
  if (domain !== context.domain) invalid(`message: domain must be ${context.domain}`);
  if (!URL.canParse(uri) || new URL(uri).host !== context.domain) {
    invalid(`message: URI must be on ${context.domain}`);
  }
  if (!context.chains.isConfigured(chainId)) {
    invalid(`message: chain ${chainId} is not supported here`);
  }
  if (Number.isNaN(issuedAt.getTime()) || issuedAt.getTime() > now.getTime() + CLOCK_SKEW_MS) {
    invalid('message: issuedAt is not a valid time in the past');
  }
  // No nonce outlives 10 minutes, so neither can a message that uses one.
  if (issuedAt.getTime() < now.getTime() - NONCE_TTL_SECONDS * 1000 - CLOCK_SKEW_MS) {
    invalid('message: issuedAt is older than a nonce lives');
  }
  if (fields.expirationTime && !(fields.expirationTime > now)) {
    invalid('message: has expired');
  }
  if (fields.notBefore && !(fields.notBefore.getTime() <= now.getTime() + CLOCK_SKEW_MS)) {
    invalid('message: is not valid yet (notBefore)');
  }
  // viem's own checks too: nonce format, version "1", address checksum-agnostic validity.
  if (!validateSiweMessage({ message: fields, domain: context.domain, time: now })) {
    invalid('message: is not a valid SIWE message');
  }
  return { address, chainId, nonce };
}

/**
 * An EOA signature is checked locally (ecrecover). Anything else may be a contract wallet:
 * EIP-1271 (deployed) or EIP-6492 (counterfactual), checked through the chain's RPC.
 */
async function signatureMatches(
  context: SiweContext,
  input: { address: Hex; chainId: number; message: string; signature: Hex },
): Promise<boolean> {
  const { address, message, signature } = input;
  const eoa = await verifyMessage({ address, message, signature }).catch(() => false);
  if (eoa) return true;
  const client = context.chains.client(input.chainId);
  if (!client) return false;
  try {
    return await client.verifyMessage({ address, message, signature });
  } catch (err) {
    context.logger.warn({ err, chainId: input.chainId }, 'contract wallet check failed');
    throw new AppError(
      'service_unavailable',
      `signature: could not be checked on chain ${input.chainId}; retry shortly`,
    );
  }
}

/** Verifies a signed SIWE message and consumes its nonce; returns the lowercase address. */
export async function verifySiwe(
  context: SiweContext,
  input: { message: string; signature: Hex },
  now = new Date(),
): Promise<string> {
  const { address, chainId, nonce } = checkFields(context, input.message, now);
  if ((await nonceStore(context, context.redis.exists(nonceKey(nonce)))) === 0) {
    throw new AppError('nonce_invalid', 'nonce: is unknown, expired or already used');
  }
  const valid = await signatureMatches(context, {
    address,
    chainId,
    message: input.message,
    signature: input.signature,
  });
  if (!valid) invalid('signature: does not match the message and address');
  // DEL answers 1 to exactly one caller: two concurrent verifies cannot both log in. A DEL
  // that timed out may still run once Redis answers again: the nonce is then spent without a
  // login, and the wallet signs in again with a new one.
  if ((await nonceStore(context, context.redis.del(nonceKey(nonce)))) !== 1) {
    throw new AppError('nonce_invalid', 'nonce: is unknown, expired or already used');
  }
  return address.toLowerCase();
}
