import { randomUUID } from 'node:crypto';
import type { EntityManager } from '../../../shared/db/orm';
import { sqlOf, statement } from '../../../shared/db/sql';
import { flowNumber, parseFlow } from '../../../shared/domain/flow';
import { AppError } from '../../../shared/errors';
import { creditUser } from '../../../shared/flow/ledger';
import type { Actor } from '../../access/actor';
import { FAUCET_DEFAULT_FLOW, type FaucetInput } from './schemas';

/** Ledger `refType` of faucet credits (reason `grant`: never withdrawable). */
export const FAUCET_REF_TYPE = 'dev_faucet';

/** What a user can spend, micro-FLOW (int8 as text). */
interface SpendableRow {
  spendable: string;
}

/** The caller's spendable balance, read in the faucet's transaction after its credit. */
const spendableBalance = statement<SpendableRow, [userId: number]>(
  'dev.spendable',
  'select (balance - held)::text as spendable from flow_accounts where user_id = $1',
);

export interface DevDeps {
  em: EntityManager;
}

/**
 * `POST /dev/faucet`: credits the caller test FLOW through the ledger (shared/flow/ledger.ts,
 * the one module that moves FLOW), as a grant.
 */
export async function faucet(deps: DevDeps, actor: Actor, input: FaucetInput) {
  const { userId } = actor;
  const amount = parseFlow(input.amountFlow ?? FAUCET_DEFAULT_FLOW);
  if (amount === null || amount === 0n) {
    throw new AppError('invalid_request', 'amountFlow: must be at least 0.000001');
  }
  const now = new Date();
  return deps.em.transactional(async (tx) => {
    const refId = randomUUID();
    const entry = await creditUser(tx, userId, amount, {
      reason: 'grant',
      refType: FAUCET_REF_TYPE,
      refId,
      metadata: { faucet: true },
      now,
    });
    const account = await sqlOf(tx).row(spendableBalance, [userId]);
    return {
      entry: {
        id: entry.id,
        delta: flowNumber(entry.delta),
        balanceAfter: flowNumber(entry.balanceAfter),
        reason: 'grant' as const,
        refType: FAUCET_REF_TYPE,
        refId,
        metadata: { faucet: true },
        createdAt: now.toISOString(),
      },
      balance: flowNumber(BigInt(account?.spendable ?? 0)),
    };
  });
}
