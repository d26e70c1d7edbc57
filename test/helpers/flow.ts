import { randomUUID } from 'node:crypto';
import { parseFlow } from '../../shared/domain/flow';
import { creditUser } from '../../shared/flow/ledger';
import type { TestContext } from './context';

/** FLOW as micro-FLOW, for balances a test compares with the database. */
export function microFlow(flow: number): bigint {
  const value = parseFlow(flow);
  if (value === null) throw new Error(`not a FLOW amount: ${flow}`);
  return value;
}

/** Credits `flow` FLOW to a user through the ledger (a top-up), as a provider payment would. */
export async function fundFlow(
  ctx: Pick<TestContext, 'deps'>,
  userId: number,
  flow: number,
  refId = randomUUID(),
): Promise<void> {
  await ctx.deps.orm.em.fork().transactional((tx) =>
    creditUser(tx, userId, microFlow(flow), {
      reason: 'topup',
      refType: 'credit',
      refId,
      now: new Date(),
    }),
  );
}
