import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { EventSource } from 'eventsource';
import { signIn, type SignedIn } from '../helpers/auth';
import { UNLIMITED_RATES, useTestApp } from '../helpers/context';

/**
 * A whole build through the public surface: POST /projects, start, the stream read by the
 * `eventsource` npm client on one API instance and resumed with Last-Event-ID on another, the
 * workspace's real commits, the final status, the artifact and the outbox event.
 */

interface StreamEvent {
  id: number;
  type: string;
  data: Record<string, unknown>;
}

const EVENT_TYPES = ['plan', 'tool_call', 'tool_result', 'message', 'commit', 'error', 'done'];

let alice: SignedIn;

const test = useTestApp({
  env: { ...UNLIMITED_RATES, BUILD_PACE_MS: '150' },
  apis: 2,
  listen: true,
  worker: true,
});
beforeAll(async () => {
  alice = await signIn(test.app);
});

/** Reads a stream with the `eventsource` package until `done`, then closes it. */
function readStream(
  url: string,
  options: { lastEventId?: number; onEvent?: (event: StreamEvent) => void } = {},
): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  return new Promise((resolve, reject) => {
    const source = new EventSource(url, {
      fetch: (input, init) =>
        fetch(input, {
          ...init,
          headers: {
            ...init.headers,
            ...(options.lastEventId !== undefined && events.length === 0
              ? { 'last-event-id': String(options.lastEventId) }
              : {}),
          },
        }),
    });
    const timer = setTimeout(() => {
      source.close();
      reject(new Error(`stream did not reach done; got ${events.length} events`));
    }, 50_000);
    for (const type of EVENT_TYPES) {
      source.addEventListener(type, (message) => {
        const event = {
          id: Number(message.lastEventId),
          type,
          data: JSON.parse(message.data) as Record<string, unknown>,
        };
        events.push(event);
        options.onEvent?.(event);
        if (type === 'done') {
          clearTimeout(timer);
          source.close();
          resolve(events);
        }
      });
    }
  });
}

async function createToken(): Promise<string> {
  const response = await test.app.inject({
    method: 'POST',
    url: '/tokens',
    headers: { cookie: alice.cookie },
    payload: {
      template: 'virtuals',
      name: 'Builder Token',
      ticker: 'BLD',
      chainId: 31337,
      params: { graduationThreshold: '42000', initialBuy: '1' },
    },
  });
  expect(response.statusCode).toBe(201);
  return response.json<{ slug: string }>().slug;
}

it('builds a project live: the stream, its resumption on another instance, commits, artifact', async () => {
  const tokenSlug = await createToken();
  const created = await test.app.inject({
    method: 'POST',
    url: '/projects',
    headers: { cookie: alice.cookie },
    payload: {
      tokenSlug,
      title: 'Landing page for the builder token',
      brief: 'A small web app that shows the token and a counter.',
      agentTemplate: 'fullstack-builder',
    },
  });
  expect(created.statusCode).toBe(201);
  const project = created.json<{ id: string; slug: string; status: string }>();
  expect(project.status).toBe('idle');

  // Subscribed before the start: a client sees the run from its first event.
  let resumeFrom = 0;
  let resumed: Promise<StreamEvent[]> | undefined;
  const live = readStream(`${test.url}/projects/${project.slug}/stream`, {
    onEvent: (event) => {
      // A second client drops in on the other instance mid-build, from event 3.
      if (event.id === 3) {
        resumeFrom = event.id;
        resumed = readStream(`${test.otherUrl}/projects/${project.slug}/stream`, {
          lastEventId: 3,
        });
      }
    },
  });
  const started = await test.app.inject({
    method: 'POST',
    url: `/projects/${project.slug}/start`,
    headers: { cookie: alice.cookie },
  });
  expect(started.statusCode).toBe(200);
  const { runId } = started.json<{ runId: string }>();

  const events = await live;
  expect(events.map((event) => event.id)).toEqual(events.map((_, index) => index + 1));
  expect(events[0]?.type).toBe('plan');
  expect(events.at(-1)).toEqual({
    id: events.length,
    type: 'done',
    data: { runId, finalStatus: 'completed' },
  });
  for (const type of ['tool_call', 'tool_result', 'commit']) {
    expect(events.some((event) => event.type === type)).toBe(true);
  }

  // The second instance's client got exactly the events after 3, in order, once.
  expect(resumed).toBeDefined();
  const tail = await resumed!;
  expect(resumeFrom).toBe(3);
  expect(tail).toEqual(events.filter((event) => event.id > 3));

  // The commit events are the workspace's real commits, in order.
  const workspace = join(test.ctx.config.build.workspaceRoot, project.id, runId);
  const log = execFileSync('git', ['-C', workspace, 'log', '--format=%H', '--reverse'], {
    encoding: 'utf8',
  })
    .trim()
    .split('\n');
  const commitShas = events.filter((e) => e.type === 'commit').map((e) => e.data.sha);
  expect(commitShas.length).toBeGreaterThanOrEqual(3);
  expect(log.slice(-commitShas.length)).toEqual(commitShas);

  const view = await test.app.inject({ method: 'GET', url: `/projects/${project.slug}` });
  expect(view.statusCode).toBe(200);
  const body = view.json<{
    status: string;
    lastEventId: number;
    run: { runId: string; status: string; headSha: string; artifactUrl: string };
  }>();
  expect(body.status).toBe('completed');
  expect(body.lastEventId).toBe(events.length);
  expect(body.run).toMatchObject({ runId, status: 'completed', headSha: commitShas.at(-1) });
  const artifactPath = `/projects/${project.slug}/runs/${runId}/artifact`;
  expect(body.run.artifactUrl).toBe(`${test.ctx.config.publicBaseUrl}${artifactPath}`);

  const artifact = await test.app.inject({ method: 'GET', url: artifactPath });
  expect(artifact.statusCode).toBe(200);
  expect(artifact.headers['content-type']).toBe('application/gzip');
  expect([...artifact.rawPayload.subarray(0, 2)]).toEqual([0x1f, 0x8b]);

  const outbox = await test.ctx.sql<{ event: string; data: Record<string, unknown> }>(
    'select event, data from outbox_events where user_id = $1',
    [alice.userId],
  );
  expect(outbox).toEqual([
    {
      event: 'project.completed',
      data: { slug: project.slug, artifact_url: body.run.artifactUrl },
    },
  ]);

  // Caught up on a finished run: 204 tells EventSource clients to stop reconnecting.
  const caughtUp = await fetch(`${test.otherUrl}/projects/${project.slug}/stream`, {
    headers: { 'last-event-id': String(events.length) },
  });
  expect(caughtUp.status).toBe(204);
});
