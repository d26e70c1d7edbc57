import { randomBytes, randomUUID } from 'node:crypto';
import type { AgentTemplate } from '../shared/db/entities/project';

/** Runs one statement and returns its rows (a `pg` client's query, a test context's `sql`). */
export type RunSql = <Row extends Record<string, unknown>>(
  text: string,
  params: unknown[],
) => Promise<Row[]>;

export interface QueuedBuild {
  ownerId: number;
  tokenId: string;
  projectId: string;
  runId: string;
  slug: string;
  title: string;
  brief: string;
  template: AgentTemplate;
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
let tickerSeq = 0;

/**
 * Inserts, as the API would leave them before the build workflow starts, an owner, a live
 * token, a queued public project and its queued run: the rows a build needs, written straight
 * to SQL (the tests' build fixtures and the screenshot script share this one writer).
 */
export async function insertQueuedBuild(
  sql: RunSql,
  options: { slug?: string; title?: string; brief?: string; template?: AgentTemplate } = {},
): Promise<QueuedBuild> {
  const template = options.template ?? 'fullstack-builder';
  const title = options.title ?? `Build ${hex(3)}`;
  const brief =
    options.brief ??
    "A small service for token holders. It shows the token's story and its roadmap. Holders can check that it is up.";
  const slug = options.slug ?? `build-${hex(4)}`;
  const [owner] = await sql<{ id: number }>(
    'insert into users (address, created_at) values ($1, now()) returning id',
    [`0x${hex(20)}`],
  );
  const ownerId = owner!.id;
  const tokenId = randomUUID();
  const projectId = randomUUID();
  const runId = randomUUID();
  const ticker = `B${(++tickerSeq).toString(36).toUpperCase().padStart(5, '0')}`;
  await sql(
    `insert into tokens (id, owner_id, slug, name, ticker, template, chain_id, params, state, created_at)
     values ($1, $2, $3, $4, $5, 'dpnm', 31337, '{}'::jsonb, 'live', now())`,
    [tokenId, ownerId, `tok-${hex(4)}`, 'Build token', ticker],
  );
  await sql(
    `insert into projects (id, owner_id, token_id, slug, title, brief, agent_template, private, status,
       current_run_id, last_event_seq, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, false, 'queued', $8, 0, now(), now())`,
    [projectId, ownerId, tokenId, slug, title, brief, template, runId],
  );
  await sql(
    `insert into project_runs (id, project_id, status, planner, created_at)
     values ($1, $2, 'queued', 'pending', now())`,
    [runId, projectId],
  );
  return { ownerId, tokenId, projectId, runId, slug, title, brief, template };
}
