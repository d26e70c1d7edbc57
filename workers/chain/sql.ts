import type { EntityManager, Knex } from '@mikro-orm/postgresql';

/**
 * Runs one statement of the indexer with its values as bind parameters, in the entity
 * manager's transaction when it has one. Not `em.execute`: that inlines every value into the
 * SQL text, and a range's rows travel as one JSON document of megabytes (bench/README.md,
 * "Chain indexer").
 */
export async function query<Row = Record<string, unknown>>(
  em: EntityManager,
  text: string,
  params: readonly unknown[] = [],
): Promise<Row[]> {
  const knex = em.getTransactionContext<Knex.Transaction>() ?? em.getKnex();
  const result = await knex.raw<{ rows: Row[] }>(text, params as Knex.RawBinding[]);
  return result.rows;
}
