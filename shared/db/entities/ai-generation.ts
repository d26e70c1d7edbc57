import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const AI_FILL_KINDS = ['token', 'agent'] as const;

/**
 * How a fill ended: `ok` at the first answer, `repaired` after the one repair turn,
 * `invalid_output` when the repair broke the rules too, `refused` by the model, `unavailable`
 * when the model could not be asked or did not answer in time.
 */
export const AI_FILL_OUTCOMES = [
  'ok',
  'repaired',
  'invalid_output',
  'refused',
  'unavailable',
] as const;
export type AiFillOutcome = (typeof AI_FILL_OUTCOMES)[number];

/**
 * One AI metadata fill (docs/spec/contract.md §15): who asked, a hash of the brief (the brief
 * itself is never stored or logged), the model, the outcome and how long it took. For abuse
 * review and for tuning the prompt; rows are append-only.
 */
export const AiGeneration = defineEntity({
  name: 'AiGeneration',
  tableName: 'ai_generations',
  indexes: [{ properties: ['userId', 'createdAt'] }],
  properties: {
    id: p.uuid().primary(),
    userId: p.integer(),
    kind: p.enum([...AI_FILL_KINDS]),
    /** Lowercase hex SHA-256 of the brief's UTF-8 bytes. */
    briefSha256: p.string().length(64),
    model: p.text(),
    outcome: p.enum([...AI_FILL_OUTCOMES]),
    /** Chat-completions requests sent: 1, or 2 with the repair turn. */
    requests: p.smallint(),
    latencyMs: p.integer(),
    /** The API request's id (`requestId` of the answer, and of its log lines). */
    requestId: p.text(),
    createdAt: p.datetime(3),
  },
});

export type AiGeneration = InferEntity<typeof AiGeneration>;
