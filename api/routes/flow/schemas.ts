import { z } from 'zod';
import { LEDGER_REASONS } from '../../../shared/db/entities/ledger-entry';
import { pageOf, pageQuery } from '../../paging/page';
import { flowAmount, isoTime } from '../../wire';

/** Wire shapes of the FLOW balance, ledger and internal credit endpoints (spec "FLOW"). */

/** Reasons an internal caller may credit with; `call` and `payout` only come from the platform. */
export const CREDIT_REASONS = ['topup', 'quest', 'grant', 'refund'] as const;

const REF_ID = /^[\x20-\x7e]{1,255}$/;
const INSTANT_RULE = 'must be an ISO 8601 timestamp with Z or an offset';
const REASON_RULE = `must be one of ${LEDGER_REASONS.join(', ')}`;

/** A type error's message that still says "is required" when the field is missing. */
const typeError = (rule: string) => (issue: { input: unknown }) =>
  issue.input === undefined ? 'is required' : rule;

/**
 * An instant as a client writes it (Z or an offset, any fraction). Rows are stored to the
 * millisecond, so a finer fraction is rounded up: `from` stays inclusive and `to` exclusive
 * of exactly the instants the client named.
 */
const instant = z
  .string()
  // An unencoded "+02:00" in a query string arrives as " 02:00"; nothing else can mean that.
  .transform((text) => text.replace(/ (\d\d:\d\d)$/, '+$1'))
  .pipe(z.iso.datetime({ offset: true, error: INSTANT_RULE }))
  .transform((text) => {
    const date = new Date(text);
    const subMillisecond = /\.\d{3}(\d+)/.exec(text)?.[1];
    if (subMillisecond && /[1-9]/.test(subMillisecond)) date.setTime(date.getTime() + 1);
    return date;
  });

export const ledgerQuery = z.object({
  ...pageQuery,
  reason: z
    .enum(LEDGER_REASONS, { error: REASON_RULE })
    .optional()
    .describe('Only entries with this reason'),
  from: instant.optional().describe('Entries created at or after this instant (inclusive)'),
  to: instant.optional().describe('Entries created before this instant (exclusive)'),
});

export const ledgerEntrySchema = z
  .object({
    id: z.uuid(),
    delta: z.number().describe('FLOW; negative for spend'),
    balanceAfter: z.number().describe('The account’s FLOW balance right after this entry'),
    reason: z.enum(LEDGER_REASONS),
    refType: z.string().describe('What caused it: credit, agent_call, agent_subscription, …'),
    refId: z.string(),
    metadata: z.record(z.string(), z.unknown()),
    createdAt: isoTime,
  })
  .meta({ id: 'LedgerEntry' });

export type LedgerEntryWire = z.infer<typeof ledgerEntrySchema>;

export const ledgerPageSchema = pageOf(ledgerEntrySchema).meta({ id: 'LedgerPage' });

export const flowBalanceSchema = z
  .object({
    balance: z.number().describe('Spendable FLOW: the balance minus what calls in flight hold'),
    withdrawableFlow: z
      .number()
      .describe(
        'Spendable FLOW minus all FLOW ever granted and top-ups younger than TOPUP_SETTLEMENT_HOURS',
      ),
    breakdown: z
      .object({
        topUp: z.number(),
        subscriptionGrant: z.number(),
        creatorShare: z.number(),
        holderRewardsTotal: z.number(),
        freelance: z.number(),
        quests: z.number(),
      })
      .describe('Lifetime FLOW received, by source'),
    recentLedger: z.array(ledgerEntrySchema).describe('The last 20 entries, newest first'),
  })
  .meta({ id: 'FlowBalance' });

export const creditBody = z.strictObject({
  userId: z
    .number({ error: typeError('must be an integer') })
    .int({ error: 'must be an integer' })
    .min(1, { error: 'must be a positive integer' })
    .max(2_147_483_647, { error: 'must be a user id' }),
  // flowAmount's own type error says only "Invalid input"; this one names the rule.
  amountFlow: z
    .union([z.string(), z.number()], { error: typeError('must be a positive FLOW amount') })
    .pipe(flowAmount)
    .describe('FLOW to credit, > 0; more than 6 decimals are rounded down'),
  reason: z.enum(CREDIT_REASONS, {
    error: typeError(`must be one of ${CREDIT_REASONS.join(', ')}`),
  }),
  refId: z
    .string({ error: typeError('must be a string') })
    .regex(REF_ID, { error: 'must be 1 to 255 printable ASCII characters' })
    .describe('The caller’s unique id for this credit (e.g. the provider payment id)'),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

export const creditResultSchema = z
  .object({
    entry: ledgerEntrySchema,
    balance: z.number().describe('The user’s spendable FLOW now'),
  })
  .meta({ id: 'FlowCredit' });

/** Every path below the removed `/me/payouts`. */
export const payoutsWildcardParams = z.object({
  '*': z.string().describe('Any path below /me/payouts'),
});

export type LedgerInput = z.output<typeof ledgerQuery>;
export type CreditInput = z.output<typeof creditBody>;
