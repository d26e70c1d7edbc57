import { z } from 'zod';

/** Wire shapes of the development helpers (absent in production). */

/** FLOW the faucet credits when the body names no amount, and the most one request may ask. */
export const FAUCET_DEFAULT_FLOW = 1000;
export const FAUCET_MAX_FLOW = 100_000;

export const faucetBody = z
  .strictObject({
    amountFlow: z
      .number({ error: 'must be a number' })
      .min(0.000001, { error: 'must be at least 0.000001' })
      .max(FAUCET_MAX_FLOW, { error: `must be at most ${FAUCET_MAX_FLOW}` })
      .default(FAUCET_DEFAULT_FLOW)
      .describe(
        `FLOW to credit (default ${FAUCET_DEFAULT_FLOW}); more than 6 decimals are rounded down`,
      ),
  })
  // No body at all arrives as null.
  .nullish();

/** `amountFlow` is missing when the body was left out. */
export type FaucetInput = Partial<NonNullable<z.output<typeof faucetBody>>>;
