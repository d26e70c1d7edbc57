import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { argsDigest } from '../../shared/projects/approvals';
import { signIn, type SignedIn } from '../helpers/auth';
import { requestApproval } from '../../shared/projects/approval-store';
import {
  insertBuildFixture,
  projectActivitiesFor,
  projectEvents,
  startBuild,
  waitFor,
  waitForProjectEvent,
  type BuildFixture,
} from '../helpers/build-fixtures';
import { UNLIMITED_RATES, useTestApp } from '../helpers/context';
import { expectError } from '../helpers/errors';
import {
  assistantReply,
  startLlmServer,
  type FakeLlm,
  type LlmRequest,
} from '../helpers/llm-server';

/**
 * Owner approvals in builds (docs/spec/contract.md §16) through the real API, worker and
 * Temporal: a research-agent build whose brain (a loopback OpenAI-protocol server) calls
 * `fetch_url` stops before the call, the owner decides over HTTP, and the build goes on. The
 * page is a loopback HTTP server (loopback is allow-listed outside production) that counts
 * its hits, so "fetched once" and "never fetched" are measured, not assumed.
 */

let llm: FakeLlm;
let page: Server;
let pageUrl: string;
let pageHits = 0;
const PAGE_TEXT = 'Bonding curves graduate at a threshold.';

beforeAll(async () => {
  llm = await startLlmServer();
  page = createServer((_req, res) => {
    pageHits += 1;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<html><head><title>Curves</title><script>ignored()</script></head><body><h1>Notes</h1><p>${PAGE_TEXT}</p></body></html>`,
    );
  });
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/notes`;
});
afterAll(async () => {
  await llm.close();
  await new Promise((resolve) => page.close(resolve));
});

const test = useTestApp({
  env: () => ({
    ...UNLIMITED_RATES,
    LLM_BASE_URL: llm.url,
    LLM_API_KEY: 'test-llm-key',
    LLM_TIMEOUT_MS: '5000',
  }),
  worker: true,
});

/** Turn of an LLM request: each earlier turn (and the plan) left one assistant message. */
const turnOf = (request: LlmRequest) =>
  request.body.messages.filter((message) => message.role === 'assistant').length;

/** A brain that plans, fetches the page in turn 1, and finishes in turn 2. */
function fetchingBrain() {
  llm.handler = (request) => {
    if (request.body.tool_choice !== 'auto') {
      return assistantReply(null, [{ name: 'update_plan', args: { steps: ['Read the page'] } }]);
    }
    return turnOf(request) === 1
      ? assistantReply('Reading the notes.', [{ name: 'fetch_url', args: { url: pageUrl } }])
      : assistantReply('Done.');
  };
}

interface Approval {
  id: string;
  status: string;
  argsDigest: string;
  argsPreview: unknown;
  tool: string;
  comment: string | null;
}

let owner: SignedIn;
let stranger: SignedIn;
beforeAll(async () => {
  stranger = await signIn(test.app);
});

/** A queued research-agent build owned by a fresh signed-in user, and its policy. */
async function ownedBuild(policy?: Record<string, unknown>): Promise<BuildFixture> {
  owner = await signIn(test.app);
  const fixture = await insertBuildFixture(test.ctx, { template: 'research-agent' });
  await test.ctx.sql('update projects set owner_id = $1 where id = $2', [
    owner.userId,
    fixture.projectId,
  ]);
  await test.ctx.sql('update tokens set owner_id = $1 where id = $2', [
    owner.userId,
    fixture.tokenId,
  ]);
  if (policy) {
    const put = await call(owner, 'PUT', `/projects/${fixture.slug}/approval-policy`, policy);
    expect(put.statusCode).toBe(200);
  }
  return fixture;
}

function call(session: SignedIn, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) {
  return test.app.inject({
    method,
    url,
    headers: { cookie: session.cookie },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
}

async function pendingOf(fixture: BuildFixture): Promise<Approval> {
  await waitForProjectEvent(test.ctx, fixture.projectId, 'approval_requested');
  const list = await call(owner, 'GET', `/projects/${fixture.slug}/approvals?status=pending`);
  const [approval, ...more] = list.json<{ items: Approval[] }>().items;
  expect(more).toEqual([]);
  return approval!;
}

/** The webhook events and bot messages about one request, oldest first. */
async function toldOwner(approvalId: string) {
  const webhooks = await test.ctx.sql<{ event: string; data: Record<string, unknown> }>(
    `select event, data from outbox_events where user_id = $1 and data->>'approval_id' = $2
      order by created_at, event desc`,
    [owner.userId, approvalId],
  );
  const messages = await test.ctx.sql<{ kind: string; text: string }>(
    `select kind, text from notifications where user_id = $1 and data->>'approvalId' = $2
      order by created_at`,
    [owner.userId, approvalId],
  );
  return { webhooks, messages };
}

const resultOf = async (fixture: BuildFixture) => {
  const events = await projectEvents(test.ctx, fixture.projectId);
  const fetchCall = events.find(
    (event) => event.type === 'tool_call' && event.data.tool === 'fetch_url',
  );
  return events.find(
    (event) => event.type === 'tool_result' && event.data.callId === fetchCall?.data.callId,
  )?.data;
};

describe('a build that asks', () => {
  it('stops before fetch_url, shows the request, and fetches once when approved', async () => {
    fetchingBrain();
    const fixture = await ownedBuild();
    const handle = await startBuild(test.ctx, fixture);
    const approval = await pendingOf(fixture);
    expect(approval).toMatchObject({
      tool: 'fetch_url',
      status: 'pending',
      argsPreview: { url: pageUrl },
      argsDigest: argsDigest({ url: pageUrl }),
    });
    // Stored and told before anyone decided; nothing fetched yet.
    expect(pageHits).toBe(0);
    const project = (await call(owner, 'GET', `/projects/${fixture.slug}`)).json();
    expect(project).toMatchObject({
      status: 'awaiting_approval',
      pendingApproval: { id: approval.id, tool: 'fetch_url', argsDigest: approval.argsDigest },
    });
    const inbox = await call(owner, 'GET', '/me/approvals?status=pending');
    expect(inbox.json<{ items: Approval[] }>().items.map((item) => item.id)).toEqual([approval.id]);

    const approve = (session: SignedIn, digest: string) =>
      call(session, 'POST', `/projects/${fixture.slug}/approvals/${approval.id}/approve`, {
        argsDigest: digest,
      });
    expectError(
      await approve(owner, 'f'.repeat(64)),
      409,
      'approval_stale',
      'argsDigest: does not match the request’s arguments; reload the request',
    );
    expectError(
      await approve(stranger, approval.argsDigest),
      404,
      'approval_not_found',
      `approval ${approval.id} does not exist in project ${fixture.slug}`,
    );
    const first = await approve(owner, approval.argsDigest);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ id: approval.id, status: 'approved' });
    // The same decision again answers the same; another one is refused.
    expect((await approve(owner, approval.argsDigest)).json()).toEqual(first.json());
    expectError(
      await call(owner, 'POST', `/projects/${fixture.slug}/approvals/${approval.id}/reject`, {}),
      409,
      'approval_resolved',
      `approval ${approval.id} is already approved`,
    );

    expect(await handle.result()).toEqual({ finalStatus: 'completed', reason: null });
    expect(pageHits).toBe(1);
    const result = (await resultOf(fixture)) as { result: { text: string; title: string } };
    expect(result.result).toMatchObject({ title: 'Curves' });
    expect(result.result.text).toContain(PAGE_TEXT);
    expect(result.result.text).not.toContain('ignored()');

    const events = await projectEvents(test.ctx, fixture.projectId);
    expect(events.filter((event) => event.type.startsWith('approval_'))).toEqual([
      expect.objectContaining({ type: 'approval_requested' }),
      expect.objectContaining({
        type: 'approval_resolved',
        data: { approvalId: approval.id, decision: 'approved', by: 'owner', comment: null },
      }),
    ]);
    const audit = await test.ctx.sql<{ action: string; actor: string }>(
      'select action, actor from approval_audit where approval_id = $1 order by id',
      [approval.id],
    );
    expect(audit).toEqual([
      { action: 'requested', actor: 'system:build' },
      { action: 'notified', actor: 'system:build' },
      { action: 'approved', actor: `user:${owner.userId}` },
    ]);
    // The owner reads the same trail, newest first.
    const trail = await call(owner, 'GET', `/projects/${fixture.slug}/approval-audit`);
    expect(trail.json<{ items: { action: string; approvalId: string }[] }>().items).toEqual([
      expect.objectContaining({ action: 'approved', approvalId: approval.id }),
      expect.objectContaining({ action: 'notified', approvalId: approval.id }),
      expect.objectContaining({ action: 'requested', approvalId: approval.id }),
    ]);
    expectError(
      await call(stranger, 'GET', `/projects/${fixture.slug}/approval-audit`),
      403,
      'not_owner',
    );
    // Told once each: a webhook event per change, one bot message for the request.
    expect(await toldOwner(approval.id)).toEqual({
      webhooks: [
        {
          event: 'project.approval_requested',
          data: expect.objectContaining({
            slug: fixture.slug,
            approval_id: approval.id,
            tool: 'fetch_url',
            args_digest: approval.argsDigest,
          }),
        },
        {
          event: 'project.approval_resolved',
          data: expect.objectContaining({ decision: 'approved', by: 'owner' }),
        },
      ],
      messages: [
        {
          kind: 'project.approval_requested',
          text: expect.stringMatching(
            new RegExp(`waits for your approval of a fetch_url call .*/p/${fixture.slug}$`),
          ),
        },
      ],
    });
  });

  it('gives the brain the rejection and its comment as a tool error, and goes on', async () => {
    fetchingBrain();
    const hitsBefore = pageHits;
    const fixture = await ownedBuild();
    const handle = await startBuild(test.ctx, fixture);
    const approval = await pendingOf(fixture);
    const rejected = await call(
      owner,
      'POST',
      `/projects/${fixture.slug}/approvals/${approval.id}/reject`,
      { comment: 'Use the arXiv page instead.' },
    );
    expect(rejected.json()).toMatchObject({
      status: 'rejected',
      comment: 'Use the arXiv page instead.',
    });
    expect(await handle.result()).toEqual({ finalStatus: 'completed', reason: null });
    expect(pageHits).toBe(hitsBefore);
    expect(await resultOf(fixture)).toMatchObject({
      error: 'the project owner rejected this fetch_url call: Use the arXiv page instead.',
    });
    // The brain's next turn saw it.
    const lastTurn = llm.requests.filter((request) => turnOf(request) === 2).at(-1)!;
    expect(JSON.stringify(lastTurn.body.messages)).toContain('Use the arXiv page instead.');
  });

  it('never asks under a deny rule, and never under autonomous mode', async () => {
    fetchingBrain();
    const hitsBefore = pageHits;
    const denied = await ownedBuild({ rules: [{ tool: 'fetch_url', action: 'deny' }] });
    expect(await (await startBuild(test.ctx, denied)).result()).toMatchObject({
      finalStatus: 'completed',
    });
    expect(await resultOf(denied)).toMatchObject({
      error: "fetch_url is denied by the project's approval policy; it did not run",
    });
    expect(pageHits).toBe(hitsBefore);

    const autonomous = await ownedBuild({ mode: 'autonomous' });
    expect(await (await startBuild(test.ctx, autonomous)).result()).toMatchObject({
      finalStatus: 'completed',
    });
    expect(pageHits).toBe(hitsBefore + 1);
    const asked = await test.ctx.sql(
      'select 1 from approval_requests where project_id = any($1::uuid[])',
      [[denied.projectId, autonomous.projectId]],
    );
    expect(asked).toEqual([]);
  });

  it('cancels the pending request when the build is canceled while it waits', async () => {
    fetchingBrain();
    const fixture = await ownedBuild();
    const handle = await startBuild(test.ctx, fixture);
    const approval = await pendingOf(fixture);
    const cancel = await call(owner, 'POST', `/projects/${fixture.slug}/cancel`);
    expect(cancel.statusCode).toBe(200);
    expect(await handle.result()).toMatchObject({ finalStatus: 'canceled' });
    const [row] = await test.ctx.sql('select status from approval_requests where id = $1', [
      approval.id,
    ]);
    expect(row).toEqual({ status: 'canceled' });
    expect((await toldOwner(approval.id)).messages.map((message) => message.text)).toEqual([
      expect.stringContaining('waits for your approval'),
      expect.stringMatching(
        /^The approval request for a fetch_url call of ".*" was canceled with the build\.$/,
      ),
    ]);
    expectError(
      await call(owner, 'POST', `/projects/${fixture.slug}/approvals/${approval.id}/approve`, {
        argsDigest: approval.argsDigest,
      }),
      409,
      'approval_resolved',
      `approval ${approval.id} is already canceled`,
    );
  });
});

describe('a build that ends without deciding', () => {
  it('cancels its pending request whatever ended it (here a Temporal cancellation)', async () => {
    fetchingBrain();
    const fixture = await ownedBuild();
    const handle = await startBuild(test.ctx, fixture);
    const approval = await pendingOf(fixture);
    await handle.cancel();
    expect(await handle.result()).toMatchObject({ finalStatus: 'canceled' });
    const [row] = await test.ctx.sql('select status from approval_requests where id = $1', [
      approval.id,
    ]);
    expect(row).toEqual({ status: 'canceled' });
    const project = (await call(owner, 'GET', `/projects/${fixture.slug}`)).json();
    expect(project).toMatchObject({ status: 'canceled', pendingApproval: null });
    const inbox = await call(owner, 'GET', '/me/approvals?status=pending');
    expect(inbox.json<{ items: Approval[] }>().items).toEqual([]);
  });
});

describe('remember', () => {
  /** A brain that fetches the page in turns 1 and 2 (another query each), then finishes. */
  function twiceFetchingBrain() {
    llm.handler = (request) => {
      if (request.body.tool_choice !== 'auto') {
        return assistantReply(null, [{ name: 'update_plan', args: { steps: ['Read twice'] } }]);
      }
      const turn = turnOf(request);
      return turn <= 2
        ? assistantReply(null, [{ name: 'fetch_url', args: { url: `${pageUrl}?part=${turn}` } }])
        : assistantReply('Done.');
    };
  }

  it('"run" lets later calls of the tool in the same run go without asking', async () => {
    twiceFetchingBrain();
    const hitsBefore = pageHits;
    const fixture = await ownedBuild();
    const handle = await startBuild(test.ctx, fixture);
    const approval = await pendingOf(fixture);
    const approved = await call(
      owner,
      'POST',
      `/projects/${fixture.slug}/approvals/${approval.id}/approve`,
      { argsDigest: approval.argsDigest, remember: 'run' },
    );
    expect(approved.json()).toMatchObject({ status: 'approved', remember: 'run' });
    expect(await handle.result()).toEqual({ finalStatus: 'completed', reason: null });
    expect(pageHits).toBe(hitsBefore + 2);
    const asked = await test.ctx.sql('select id from approval_requests where project_id = $1', [
      fixture.projectId,
    ]);
    expect(asked).toHaveLength(1);
  });

  it('"project" puts an allow rule first in the policy, audited: the tool stops asking', async () => {
    twiceFetchingBrain();
    // An ask rule for the tool: the remembered allow must come before it to count.
    const fixture = await ownedBuild({ rules: [{ tool: 'fetch_url', action: 'ask' }] });
    const handle = await startBuild(test.ctx, fixture);
    const approval = await pendingOf(fixture);
    await call(owner, 'POST', `/projects/${fixture.slug}/approvals/${approval.id}/approve`, {
      argsDigest: approval.argsDigest,
      remember: 'project',
    });
    expect(await handle.result()).toMatchObject({ finalStatus: 'completed' });
    const policy = await call(owner, 'GET', `/projects/${fixture.slug}/approval-policy`);
    expect(policy.json()).toMatchObject({
      mode: 'ask_risky',
      rules: [
        { tool: 'fetch_url', action: 'allow' },
        { tool: 'fetch_url', action: 'ask' },
      ],
    });
    const audit = await test.ctx.sql<{ action: string; actor: string }>(
      "select action, actor from approval_audit where project_id = $1 and action = 'policy_changed' order by id",
      [fixture.projectId],
    );
    // The owner's PUT, then the remembered rule.
    expect(audit).toEqual([
      { action: 'policy_changed', actor: `user:${owner.userId}` },
      { action: 'policy_changed', actor: `user:${owner.userId}` },
    ]);
    expect(
      await test.ctx.sql('select id from approval_requests where project_id = $1', [
        fixture.projectId,
      ]),
    ).toHaveLength(1);
  });
});

describe('plan approval', () => {
  /** A brain whose plans are numbered by how often it was asked, and that finishes at once. */
  function planningBrain() {
    let plans = 0;
    llm.handler = (request) => {
      if (request.body.tool_choice !== 'auto') {
        plans += 1;
        return assistantReply(null, [
          { name: 'update_plan', args: { steps: [`Plan ${plans}: read`, 'Write the report'] } },
        ]);
      }
      return assistantReply('Done.');
    };
  }
  const planRequests = () => llm.requests.filter((request) => request.body.tool_choice !== 'auto');

  it('stops after the plan; a rejection gets one new plan told the comment, then approval builds', async () => {
    planningBrain();
    const asked = planRequests().length;
    const fixture = await ownedBuild({ planApproval: true });
    const handle = await startBuild(test.ctx, fixture);
    const first = await pendingOf(fixture);
    expect(first).toMatchObject({
      kind: 'plan',
      tool: null,
      argsPreview: { steps: ['Plan 1: read', 'Write the report'] },
    });
    // Nothing built before the plan is approved.
    const turns = llm.requests.filter((request) => request.body.tool_choice === 'auto').length;
    await call(owner, 'POST', `/projects/${fixture.slug}/approvals/${first.id}/reject`, {
      comment: 'Read the sources first.',
    });
    await waitFor(
      async () => {
        const pending = await call(
          owner,
          'GET',
          `/projects/${fixture.slug}/approvals?status=pending`,
        );
        return pending.json<{ items: Approval[] }>().items.length === 1;
      },
      20_000,
      'a pending request',
    );
    const second = (
      await call(owner, 'GET', `/projects/${fixture.slug}/approvals?status=pending`)
    ).json<{ items: Approval[] }>().items[0]!;
    expect(second.argsPreview).toEqual({ steps: ['Plan 2: read', 'Write the report'] });
    const replan = planRequests().at(-1)!;
    expect(planRequests().length).toBe(asked + 2);
    expect(replan.body.messages[1]!.content).toContain('Read the sources first.');
    expect(replan.body.messages[1]!.content).toContain('1. Plan 1: read');
    expect(llm.requests.filter((request) => request.body.tool_choice === 'auto').length).toBe(
      turns,
    );

    const approved = await call(
      owner,
      'POST',
      `/projects/${fixture.slug}/approvals/${second.id}/approve`,
      {
        argsDigest: second.argsDigest,
      },
    );
    expect(approved.statusCode).toBe(200);
    expect(await handle.result()).toEqual({ finalStatus: 'completed', reason: null });
    const plans = (await projectEvents(test.ctx, fixture.projectId)).filter(
      (event) => event.type === 'plan',
    );
    expect(plans.map((event) => event.data.revision)).toEqual([1, 2]);
  });

  it('fails the build when the new plan is rejected too', async () => {
    planningBrain();
    const fixture = await ownedBuild({ planApproval: true });
    const handle = await startBuild(test.ctx, fixture);
    for (let attempt = 1; attempt <= 2; attempt++) {
      await waitFor(
        async () => {
          const pending = await call(
            owner,
            'GET',
            `/projects/${fixture.slug}/approvals?status=pending`,
          );
          return pending.json<{ items: Approval[] }>().items.length === 1;
        },
        20_000,
        'a pending request',
      );
      const [request] = (
        await call(owner, 'GET', `/projects/${fixture.slug}/approvals?status=pending`)
      ).json<{ items: Approval[] }>().items;
      await call(owner, 'POST', `/projects/${fixture.slug}/approvals/${request!.id}/reject`, {});
    }
    expect(await handle.result()).toEqual({
      finalStatus: 'failed',
      reason: 'the owner rejected the plan',
    });
  });
});

describe('one outcome', () => {
  it('lets exactly one of an approval and the expiry through when they race, recorded once', async () => {
    const fixture = await ownedBuild();
    const activities = projectActivitiesFor(test.ctx);
    const args = { url: pageUrl };
    const outcomes = new Set<string>();
    for (let round = 0; round < 12; round++) {
      const { row: request } = await requestApproval(
        test.ctx.deps.orm.em.fork(),
        {
          projectId: fixture.projectId,
          runId: fixture.runId,
          stepKey: `${fixture.runId}:race:${round}`,
          kind: 'tool_call',
          tool: 'fetch_url',
          argsPreview: args,
          argsDigest: argsDigest(args),
          timeoutSeconds: 3600,
          callId: null,
        },
        test.ctx.config.publicBaseUrl,
      );
      const [approved, settled] = await Promise.all([
        call(owner, 'POST', `/projects/${fixture.slug}/approvals/${request.id}/approve`, {
          argsDigest: argsDigest(args),
        }),
        activities.settleApproval({ approvalId: request.id, expire: true }),
      ]);
      const [row] = await test.ctx.sql<{ status: string }>(
        'select status from approval_requests where id = $1',
        [request.id],
      );
      outcomes.add(row!.status);
      // The one that lost is told so; the row holds the one that won.
      expect(settled.status).toBe(row!.status);
      if (row!.status === 'approved') expect(approved.statusCode).toBe(200);
      else
        expectError(
          approved,
          409,
          'approval_resolved',
          `approval ${request.id} is already expired`,
        );
      const audit = await test.ctx.sql<{ action: string }>(
        'select action from approval_audit where approval_id = $1 order by id',
        [request.id],
      );
      expect(audit.map((entry) => entry.action)).toEqual(['requested', 'notified', row!.status]);
      const resolved = (await projectEvents(test.ctx, fixture.projectId)).filter(
        (event) => event.type === 'approval_resolved' && event.data.approvalId === request.id,
      );
      expect(resolved).toHaveLength(1);
    }
    expect([...outcomes].every((status) => status === 'approved' || status === 'expired')).toBe(
      true,
    );
  });
});

describe('the approval policy', () => {
  it('has the defaults until set, is replaced whole, audited, and the owner’s only', async () => {
    const fixture = await ownedBuild();
    const url = `/projects/${fixture.slug}/approval-policy`;
    expect((await call(owner, 'GET', url)).json()).toEqual({
      mode: 'ask_risky',
      rules: [],
      planApproval: false,
      timeoutSeconds: 86400,
      onTimeout: 'reject',
      updatedAt: null,
    });
    const put = await call(owner, 'PUT', url, { mode: 'ask_all', timeoutSeconds: 600 });
    expect(put.json()).toMatchObject({ mode: 'ask_all', rules: [], timeoutSeconds: 600 });
    expect((await call(owner, 'GET', url)).json()).toEqual(put.json());
    const [audited] = await test.ctx.sql<{ action: string; actor: string }>(
      "select action, actor from approval_audit where project_id = $1 and action = 'policy_changed'",
      [fixture.projectId],
    );
    expect(audited).toEqual({ action: 'policy_changed', actor: `user:${owner.userId}` });

    expectError(
      await call(owner, 'PUT', url, { timeoutSeconds: 60 }),
      400,
      'invalid_request',
      'timeoutSeconds: must be an integer from 300 to 604800',
    );
    expectError(
      await call(owner, 'PUT', url, { rules: [{ tool: 'fetch_url', action: 'maybe' }] }),
      400,
      'invalid_request',
      /^rules\.0\.action: /,
    );
    expectError(await call(stranger, 'GET', url), 403, 'not_owner');
    expectError(await call(stranger, 'PUT', url, {}), 403, 'not_owner');
  });
});
