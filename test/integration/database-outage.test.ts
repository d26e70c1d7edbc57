import type { LightMyRequestResponse } from 'fastify';
import { buildApp, type App } from '../../api/app';
import { closeApiDeps, connectApiDeps, type ApiDeps } from '../../api/deps';
import { signIn, type SignedIn } from '../helpers/auth';
import { UNLIMITED_RATES, useTestApp } from '../helpers/context';
import { expectError } from '../helpers/errors';
import { TcpProxy } from '../helpers/tcp-proxy';

/**
 * PostgreSQL goes away under a steady load of reads and writes (docs/runbook.md "PostgreSQL
 * down"): this file's API reaches its database through a proxy the test cuts, which resets
 * every open connection and refuses new ones, as a stopped or restarting server does. While
 * it is cut every request that needs the database answers 503 `service_unavailable` with
 * `Retry-After`, never a 500; no write is left half done; once the proxy accepts again the
 * same process serves again with no restart.
 *
 * Nothing here waits a fixed time: each phase lasts until the load has put a number of
 * requests of each kind through it, so a slow machine only makes the phases longer.
 */

type Phase = 'up' | 'down' | 'recovering' | 'after';
type Kind = 'read' | 'write' | 'ready';

interface Seen {
  /** The phase the request started in. */
  phase: Phase;
  /** The phase its answer came in. */
  ended: Phase;
  kind: Kind;
  response: LightMyRequestResponse;
}

/** Generous: every phase ends by what the load has seen, not by the clock. */
const TEST_TIMEOUT_MS = 5 * 60_000;

const test = useTestApp({ apis: 0, env: UNLIMITED_RATES });
let proxy: TcpProxy;
let deps: ApiDeps;
let app: App;
let alice: SignedIn;
let load: Load | undefined;

beforeAll(async () => {
  const direct = new URL(test.ctx.config.databaseUrl!);
  proxy = await TcpProxy.start({ host: direct.hostname, port: Number(direct.port || 5432) });
  const proxied = new URL(direct);
  proxied.port = String(proxy.port);
  deps = await connectApiDeps(
    { ...test.ctx.config, databaseUrl: proxied.toString() },
    test.ctx.logger,
  );
  app = buildApp(deps);
  await app.ready();
  alice = await signIn(app);
});

afterAll(async () => {
  await load?.stop();
  await app?.close();
  if (deps) await closeApiDeps(deps);
  await proxy?.close();
});

const requests: Record<Kind, () => Promise<LightMyRequestResponse>> = {
  read: () => app.inject({ method: 'GET', url: '/tokens?limit=5' }),
  // One FLOW through the ledger: a transaction writing a balance and a ledger row.
  write: () =>
    app.inject({
      method: 'POST',
      url: '/dev/faucet',
      headers: { cookie: alice.cookie },
      payload: { amountFlow: 1 },
    }),
  ready: () => app.inject({ method: 'GET', url: '/readyz' }),
};

const succeeded = (response: LightMyRequestResponse) =>
  response.statusCode >= 200 && response.statusCode < 300;

/** Requests of every kind, one at a time per kind, until stopped. */
class Load {
  readonly seen: Seen[] = [];
  readonly failures: unknown[] = [];
  phase: Phase = 'up';
  /** Writes on their way when the proxy was cut: each may or may not have committed. */
  writesInFlightAtCut = 0;
  private inFlight: Record<Kind, number> = { read: 0, write: 0, ready: 0 };
  private running = true;
  private readonly loops: Promise<void>[];

  constructor() {
    this.loops = (Object.keys(requests) as Kind[]).map((kind) => this.loop(kind));
  }

  private async loop(kind: Kind): Promise<void> {
    while (this.running) {
      const phase = this.phase;
      this.inFlight[kind]++;
      try {
        const response = await requests[kind]();
        this.seen.push({ phase, ended: this.phase, kind, response });
      } catch (error) {
        // inject() itself failing is not an answer: it fails the test below.
        this.failures.push(error);
      } finally {
        this.inFlight[kind]--;
      }
    }
  }

  cutNow(): void {
    this.writesInFlightAtCut = this.inFlight.write;
    this.phase = 'down';
  }

  /** Responses of a kind that started in a phase; `ok`: only the successful ones. */
  count(phase: Phase, kind: Kind, ok = false): number {
    return this.seen.filter(
      (s) => s.phase === phase && s.kind === kind && (!ok || succeeded(s.response)),
    ).length;
  }

  /** Waits until `done()` holds, checking after every response; fails after `limitMs`. */
  async until(done: () => boolean, what: string, limitMs = TEST_TIMEOUT_MS / 5): Promise<void> {
    const started = Date.now();
    while (!done()) {
      if (Date.now() - started > limitMs) throw new Error(`load: ${what} within ${limitMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }
}

const ledger = async () => {
  const [row] = await test.ctx.sql<{ entries: number; total: string; balance: string }>(
    `select (select count(*)::int from ledger_entries where user_id = $1) as entries,
            (select coalesce(sum(delta), 0)::text from ledger_entries where user_id = $1) as total,
            (select coalesce(balance, 0)::text from flow_accounts where user_id = $1) as balance`,
    [alice.userId],
  );
  return row!;
};

it(
  'answers 503 with Retry-After while PostgreSQL is unreachable, loses nothing and recovers by itself',
  async () => {
    // Module-level as well, so afterAll stops it whatever fails here.
    const running = (load = new Load());
    try {
      await running.until(
        () =>
          (['read', 'write', 'ready'] as Kind[]).every((kind) => running.count('up', kind) >= 5),
        'five requests of each kind before the outage',
      );

      running.cutNow();
      await proxy.cut();
      await running.until(
        () =>
          (['read', 'write', 'ready'] as Kind[]).every((kind) => running.count('down', kind) >= 5),
        'five requests of each kind during the outage',
      );

      running.phase = 'recovering';
      await proxy.restore();
      await running.until(
        () =>
          running.count('recovering', 'read', true) > 0 &&
          running.count('recovering', 'write', true) > 0 &&
          running.count('recovering', 'ready', true) > 0,
        'service to resume after the database came back',
      );
      running.phase = 'after';
      await running.until(
        () =>
          (['read', 'write', 'ready'] as Kind[]).every((kind) => running.count('after', kind) >= 5),
        'five requests of each kind after recovery',
      );
    } finally {
      await running.stop();
    }
    expect(running.failures).toEqual([]);

    // Every answer was a success or the outage's 503, whenever it came: never a 500.
    for (const { response } of running.seen) {
      if (!succeeded(response)) expectError(response, 503, 'service_unavailable');
    }
    // Before the outage every request succeeded (one under way at the cut may have failed).
    for (const { response } of running.seen.filter((s) => s.ended === 'up')) {
      expect(succeeded(response)).toBe(true);
    }

    // During it, every request that started after the cut and was answered before the restore
    // was refused as an outage, with the time to retry; readiness says which dependency failed.
    const duringOutage = running.seen.filter((s) => s.phase === 'down' && s.ended === 'down');
    expect(duringOutage.length).toBeGreaterThanOrEqual(15);
    for (const { kind, response } of duringOutage) {
      expectError(response, 503, 'service_unavailable');
      if (kind !== 'ready') expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
      else
        expect(response.json<{ error: { message: string } }>().error.message).toMatch(/postgres/);
    }
    // After it, every request succeeded again, in the same process.
    for (const { response } of running.seen.filter((s) => s.phase === 'after')) {
      expect(succeeded(response)).toBe(true);
    }

    // No write was left half done: the balance is exactly the sum of the ledger rows, one per
    // faucet call that succeeded (plus at most the calls whose commit was on its way when
    // the connection was cut: the client cannot know whether those committed).
    const written = await ledger();
    const credited = running.seen.filter((s) => s.kind === 'write' && succeeded(s.response));
    expect(written.balance).toBe(written.total);
    expect(written.entries).toBeGreaterThanOrEqual(credited.length);
    expect(written.entries).toBeLessThanOrEqual(credited.length + running.writesInFlightAtCut);
    expect(BigInt(written.total)).toBe(BigInt(written.entries) * 1_000_000n);

    // The log names the dependency that failed.
    const outageLines = test.ctx.logs.filter((line) => line.dependency === 'postgres');
    expect(outageLines.length).toBeGreaterThan(0);
    expect(outageLines.every((line) => line.level === 50 || line.level === 'error')).toBe(true);
  },
  TEST_TIMEOUT_MS,
);
