import type { z } from 'zod';
import { flowNumber } from '../../../shared/domain/flow';
import type { Actor } from '../../access/actor';
import { isUuid } from '../../wire';
import { keyNotFound } from './access';
import { keyUsage as usageQuery, recentCalls as recentQuery } from './queries';
import type { KeyDeps } from './service';
import type { recentSchema, RecentInput, UsageInput, usageSchema } from './schemas';

/**
 * Usage reads over `api_key_usage` (docs/spec/contract.md §4). `since` is a rolling window ending now:
 * day = 24 h, week = 7 days, month = 30 days, all = since the key was created. Each is one
 * statement that also checks the key is the caller's (another user's key is a 404).
 */

type Since = UsageInput['since'];

const WINDOW_MS: Record<Exclude<Since, 'all'>, number> = {
  day: 86_400_000,
  week: 7 * 86_400_000,
  month: 30 * 86_400_000,
};

/** `now` is a test seam: the window ends there. */
export async function keyUsage(
  deps: Pick<KeyDeps, 'db' | 'usage'>,
  actor: Actor,
  input: UsageInput,
  now = new Date(),
): Promise<z.infer<typeof usageSchema>> {
  // Read-your-writes on this instance: what it has buffered is written first.
  await deps.usage.flush();
  const { id, since } = input;
  if (!isUuid(id)) throw keyNotFound(id);
  // Null: from the key's creation, which the statement reads.
  const from = since === 'all' ? null : new Date(now.getTime() - WINDOW_MS[since]);
  const rows = await deps.db.rows(usageQuery, [id, actor.userId, from, now]);
  const totals = rows.find((row) => row.set === 'total');
  if (!totals) throw keyNotFound(id);
  return {
    since,
    from: totals.from,
    to: now.toISOString(),
    requests: Number(totals.requests),
    errors: Number(totals.errors),
    flow_spent: flowNumber(BigInt(totals.flow)),
    by_model: rows
      .filter((row) => row.set === 'model')
      .map((row) => ({
        model: row.model ?? '',
        requests: Number(row.requests),
        flow_spent: flowNumber(BigInt(row.flow)),
        input_tokens: Number(row.input),
        output_tokens: Number(row.output),
      })),
    by_endpoint: rows
      .filter((row) => row.set === 'endpoint')
      .map((row) => ({
        method: row.method ?? '',
        route: row.route ?? '',
        requests: Number(row.requests),
      })),
  };
}

export async function recentCalls(
  deps: Pick<KeyDeps, 'db' | 'usage'>,
  actor: Actor,
  input: RecentInput,
): Promise<z.infer<typeof recentSchema>> {
  await deps.usage.flush();
  const { id, limit } = input;
  if (!isUuid(id)) throw keyNotFound(id);
  const key = await deps.db.row(recentQuery, [id, actor.userId, limit]);
  if (!key) throw keyNotFound(id);
  return {
    items: key.calls.map((call) => ({
      id: call.id,
      method: call.method,
      route: call.route,
      status: call.status,
      flow_cost: flowNumber(BigInt(call.flowCost)),
      model: call.model,
      latency_ms: call.latencyMs,
      created_at: call.createdAt,
    })),
  };
}
