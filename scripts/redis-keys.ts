import { Redis } from 'ioredis';

/**
 * Deletes every key under `prefix`, in batches: how a test file, a bench run or a script clears
 * its own Redis namespace (each uses a prefix of its own) without touching anyone else's.
 * Takes a client, or a URL to connect to for the sweep.
 */
export async function deleteKeysWithPrefix(redis: Redis | string, prefix: string): Promise<void> {
  const client = typeof redis === 'string' ? new Redis(redis) : redis;
  try {
    for await (const batch of client.scanStream({ match: `${prefix}*`, count: 500 })) {
      const keys = batch as string[];
      if (keys.length > 0) await client.del(...keys);
    }
  } finally {
    if (typeof redis === 'string') client.disconnect();
  }
}
