import { registerMatrixUser, type MatrixUser } from './matrix';
import { readTestServices } from './services';

/** Acts of a homeserver administrator on the run's Synapse (its admin API). */

let admin: Promise<MatrixUser> | undefined;

function administrator(): Promise<MatrixUser> {
  admin ??= registerMatrixUser(undefined, true);
  return admin;
}

/** Synapse's per-user rate-limit override (`/_synapse/admin/v1/users/<id>/override_ratelimit`). */
export async function overrideRateLimit(
  userId: string,
  limit: { messagesPerSecond: number; burstCount: number },
): Promise<void> {
  const { accessToken } = await administrator();
  const response = await fetch(
    `${readTestServices().synapse.url}/_synapse/admin/v1/users/${encodeURIComponent(userId)}/override_ratelimit`,
    {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        messages_per_second: limit.messagesPerSecond,
        burst_count: limit.burstCount,
      }),
    },
  );
  if (!response.ok)
    throw new Error(`override_ratelimit: ${response.status} ${await response.text()}`);
}
