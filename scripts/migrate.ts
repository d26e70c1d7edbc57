import { loadConfig, requireDatabaseUrl } from '../shared/config';
import { initOrm, migrate } from '../shared/db/orm';

/** `npm run db:migrate`: applies every committed migration to DATABASE_URL. */
async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const orm = await initOrm(requireDatabaseUrl(config), 2);
  try {
    const applied = await migrate(orm);
    console.log(applied.length > 0 ? `applied: ${applied.join(', ')}` : 'database is up to date');
  } finally {
    await orm.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
