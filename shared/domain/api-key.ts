import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** API key credentials (spec "API key", docs/spec/contract.md §4). Only the HMAC and the prefix are stored. */

export const API_KEY_FORMAT = /^svc_live_[0-9a-f]{64}$/;
export const API_KEY_PREFIX_LENGTH = 12;

export function generateApiKey(): string {
  return `svc_live_${randomBytes(32).toString('hex')}`;
}

export function apiKeyPrefix(rawKey: string): string {
  return rawKey.slice(0, API_KEY_PREFIX_LENGTH);
}

/** HMAC-SHA256(pepper, raw key) as hex: a database leak alone does not allow brute force. */
export function hashApiKey(pepper: string, rawKey: string): string {
  return createHmac('sha256', pepper).update(rawKey).digest('hex');
}

/** Constant-time equality of two hex digests of the same length. */
export function digestsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}
