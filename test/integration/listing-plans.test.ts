import { SEED_SIZES, seedMarketplace } from '../../scripts/seed-marketplace';
// Declares the listing's statements (the app imports it too; said here, not assumed).
import '../../api/routes/marketplace/listing';
import { requireDatabaseUrl } from '../../shared/config';
import { declaredStatements } from '../../shared/db/sql';
import { useTestApp } from '../helpers/context';

/**
 * The marketplace listing's statements under the plan the read pool runs them with
 * (`plan_cache_mode = force_generic_plan`, shared/db/sql.ts), on the benchmark's small data set
 * (200 agents, analyzed): every page without a tag filter reads its sort's index in order and
 * stops at the page size, never scanning and sorting every published agent. A filter written
 * `$n is null or tags @> …` in the same statement turned the generic plan into that sort (the
 * planner cannot tell the tag is null), at 5 × the floor's database time.
 */

const test = useTestApp();

/** The sort's index for each listing statement name (migrations: marketplace stats). */
const SORT_INDEX: Record<string, string> = {
  trending: 'agent_market_stats_trending_index',
  new: 'agent_market_stats_new_index',
  top_earning: 'agent_market_stats_top_earning_index',
  top_rated: 'agent_market_stats_top_rated_index',
};

async function genericPlan(name: string, text: string): Promise<string> {
  const parameters = Math.max(0, ...[...text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
  const prepared = name.replace(/\W/g, '_');
  await test.ctx.sql(`prepare ${prepared} as ${text}`);
  const values = parameters > 0 ? `(${Array<string>(parameters).fill('null').join(', ')})` : '';
  const rows = await test.ctx.sql<{ 'QUERY PLAN': string }>(`explain execute ${prepared}${values}`);
  await test.ctx.sql(`deallocate ${prepared}`);
  return rows.map((row) => row['QUERY PLAN']).join('\n');
}

beforeAll(async () => {
  await seedMarketplace(
    requireDatabaseUrl(test.ctx.config),
    SEED_SIZES.small,
    test.ctx.config.apiKeyPepper,
  );
  await test.ctx.sql('analyze');
  await test.ctx.sql('set plan_cache_mode = force_generic_plan');
});

describe('marketplace listing plans', () => {
  const untagged = () =>
    [...declaredStatements()].filter(
      ([name]) => name.startsWith('marketplace.page_') && !name.endsWith('_tagged'),
    );

  it('declares a first and an after-cursor page for each sort', () => {
    expect(untagged().map(([name]) => name)).toHaveLength(2 * Object.keys(SORT_INDEX).length);
  });

  it.each(Object.entries(SORT_INDEX))(
    '%s pages read %s in order, with no sort',
    async (sort, index) => {
      for (const [name, text] of untagged().filter(
        ([n]) => /^marketplace\.page_(.+?)(_after)?$/.exec(n)?.[1] === sort,
      )) {
        const plan = await genericPlan(name, text);
        expect({ name, plan }).toEqual({ name, plan: expect.stringContaining(index) });
        expect({ name, plan }).toEqual({
          name,
          plan: expect.not.stringMatching(/Sort|Seq Scan on agent_market_stats/),
        });
      }
    },
  );
});
