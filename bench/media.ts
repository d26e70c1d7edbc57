import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import sharp from 'sharp';
import { z } from 'zod';
import { Redis } from 'ioredis';
import { deleteKeysWithPrefix } from '../scripts/redis-keys';
import { findWeed, startSeaweedFs } from '../scripts/seaweedfs';
import { apiWorkflows, build, terminateWorkflows } from './hot-reads';
import { ROOT, startServer, stopServers, type ServerProcess } from './hot-reads-processes';
import { fmt, machineLoad, median, printColumns } from './hot-reads-report';
import { createProViewer, migratedDatabase } from './sse-fixture';
import { Teardown } from './sse-processes';

/**
 * Image uploads as deployed against the bare pipeline (issue 32): `POST /media` on
 * `node dist/api/main.js` (NODE_ENV=production, built first) with `x-api-key`, 4 uploads in
 * flight, each a distinct ~1 MB JPEG (so every upload runs the whole path: multipart, the
 * pipeline, the store write and the row), against the floor, bench/anchors/media-floor.mjs:
 * a bare `node` process running `processImage` from dist/shared/media/images.js on the same
 * JPEGs with 4 in flight. Each round alternates the sides slice by slice, the side that starts
 * flipping per round; the verdict is the median of the per-round ratios. The API's RSS is sampled from /proc every 20 ms: baseline (idle, after
 * start) and peak. The store is a temporary directory (MEDIA_DIR), or SeaweedFS's S3 gateway
 * with BENCH_MEDIA_S3=1. Database, Redis keys, Temporal workflows, processes and files are
 * removed at the end, also on failure or Ctrl-C.
 */
const benchEnv = z.object({
  /** Uploads per side per round. */
  BENCH_MEDIA_UPLOADS: z.coerce.number().int().positive().default(48),
  /** Slices per round, alternating ours and the floor. */
  BENCH_MEDIA_SLICES: z.coerce.number().int().positive().default(4),
  BENCH_MEDIA_CONCURRENCY: z.coerce.number().int().positive().default(4),
  /** Uncounted uploads per side before the first round. */
  BENCH_MEDIA_WARMUP: z.coerce.number().int().min(0).default(8),
  BENCH_ROUNDS: z.coerce.number().int().positive().default(3),
  /** 1: store in SeaweedFS (scripts/seaweedfs.ts) instead of a directory. */
  BENCH_MEDIA_S3: z.enum(['0', '1']).default('0'),
  BENCH_SKIP_BUILD: z.enum(['0', '1']).default('0'),
  DATABASE_URL: z.string().default('postgres://postgres:postgres@127.0.0.1:5432/postgres'),
  REDIS_URL: z.string().default('redis://127.0.0.1:6379'),
  TEMPORAL_ADDRESS: z.string().default('127.0.0.1:7233'),
  DATABASE_POOL_MAX: z.string().optional(),
});
type BenchEnv = z.infer<typeof benchEnv>;

/** The goal of issue 32: ours ≥ 0.8 × the bare pipeline. */
const GOAL = 0.8;
const NO_LIMIT_RPM = '1000000000';
/** The most MEDIA_UPLOADS_PER_HOUR allows (shared/config.ts). */
const UPLOADS_PER_HOUR = '100000';
const SAMPLE_MS = 20;
/** The generated JPEGs: 2000 × 1500 px, quality 90, about 1 MB each. */
const IMAGE = { width: 2000, height: 1500, quality: 90, fine: 20 };
const BOUNDARY = `----bench-media-${randomBytes(8).toString('hex')}`;

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const mb = (kb: number) => fmt(kb / 1024, 0);

/** Fine grain, ±IMAGE.fine / 2, shared by every picture (their blobs differ). */
const GRAIN = Int8Array.from(randomBytes(1 << 20), (byte) =>
  Math.floor((byte / 256 - 0.5) * IMAGE.fine),
);

/** xorshift32: the same seed, the same picture. */
function random(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296;
  };
}

/**
 * A distinct JPEG per seed: smooth colour blobs (low-resolution noise scaled up) plus fine
 * grain, which lands near 1 MB at quality 90, like a photo of that size.
 */
async function makeJpeg(seed: number): Promise<Buffer> {
  const next = random(Math.imul(seed + 1, 2654435761));
  const [lw, lh] = [IMAGE.width / 10, IMAGE.height / 10];
  const low = Buffer.alloc(lw * lh * 3);
  for (let i = 0; i < low.length; i++) low[i] = Math.floor(next() * 256);
  const pixels = await sharp(low, { raw: { width: lw, height: lh, channels: 3 } })
    .resize(IMAGE.width, IMAGE.height, { kernel: 'cubic' })
    .toFormat('raw')
    .toBuffer();
  const offset = Math.floor(next() * GRAIN.length);
  for (let i = 0; i < pixels.length; i++) {
    pixels[i] = Math.max(0, Math.min(255, pixels[i]! + GRAIN[(i + offset) % GRAIN.length]!));
  }
  return sharp(pixels, { raw: { width: IMAGE.width, height: IMAGE.height, channels: 3 } })
    .jpeg({ quality: IMAGE.quality })
    .toBuffer();
}

/** `multipart/form-data` with one part, `file`, as a browser or curl sends it. */
function multipartBody(jpeg: Buffer, name: string): Buffer {
  return Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
        `Content-Type: image/jpeg\r\n\r\n`,
    ),
    jpeg,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

/** VmRSS and VmHWM (peak) of a process, in kB, from /proc (Linux; NaN elsewhere). */
function memoryKb(pid: number): { rss: number; hwm: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) =>
      Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1]);
    return { rss: field('VmRSS'), hwm: field('VmHWM') };
  } catch {
    return { rss: NaN, hwm: NaN };
  }
}

/** CPU time (user + system) a process has used so far, in µs, from /proc (10 ms ticks). */
function cpuMicros(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return NaN;
  }
}

/** Samples a process's RSS every SAMPLE_MS; `peak` is the highest VmRSS seen or VmHWM. */
class RssSampler {
  private maxRss = 0;
  private readonly timer: NodeJS.Timeout;
  constructor(private readonly pid: number) {
    this.timer = setInterval(() => this.sample(), SAMPLE_MS);
  }
  private sample(): { rss: number; hwm: number } {
    const now = memoryKb(this.pid);
    if (now.rss > this.maxRss) this.maxRss = now.rss;
    return now;
  }
  peakKb(): number {
    const now = this.sample();
    return Math.max(this.maxRss, now.hwm);
  }
  stop(): void {
    clearInterval(this.timer);
  }
}

/** One side's run of some uploads: sums, merged over a round's slices. */
interface Run {
  done: number;
  failed: number;
  ms: number;
  cpuUs: number;
  latencies: number[];
}

const emptyRun = (): Run => ({ done: 0, failed: 0, ms: 0, cpuUs: 0, latencies: [] });
function addRun(total: Run, run: Run): void {
  total.done += run.done;
  total.failed += run.failed;
  total.ms += run.ms;
  total.cpuUs += run.cpuUs;
  total.latencies.push(...run.latencies);
}
/** Successful uploads per second over the run's wall time. */
const rateOf = (run: Run) => ((run.done - run.failed) * 1000) / run.ms;

function upload(
  agent: Agent,
  api: ServerProcess,
  apiKey: string,
  body: Buffer,
): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((done, fail) => {
    const req = request(
      api.url('/media'),
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
          'content-length': body.length,
          'x-api-key': apiKey,
        },
      },
      (res) => {
        res.resume();
        res.once('end', () =>
          done({ status: res.statusCode ?? 0, ms: performance.now() - started }),
        );
        res.once('error', fail);
      },
    );
    req.once('error', fail);
    req.end(body);
  });
}

/** Uploads bodies [from, to) with `concurrency` in flight; only 201 counts as done. */
async function measureOurs(
  api: ServerProcess,
  apiKey: string,
  bodies: Buffer[],
  from: number,
  to: number,
  concurrency: number,
): Promise<Run> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  let next = from;
  let failed = 0;
  const latencies: number[] = [];
  const cpu = cpuMicros(api.pid);
  const started = performance.now();
  const worker = async () => {
    while (next < to) {
      const body = bodies[next++]!;
      const result = await upload(agent, api, apiKey, body).catch(() => ({ status: 0, ms: 0 }));
      if (result.status === 201) latencies.push(result.ms);
      else failed += 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const ms = performance.now() - started;
  const cpuUs = cpuMicros(api.pid) - cpu;
  agent.destroy();
  return { done: to - from, failed, ms, cpuUs, latencies };
}

interface Floor {
  pid: number;
  run(from: number, to: number, concurrency: number): Promise<Run>;
  stop(): Promise<void>;
}

/** bench/anchors/media-floor.mjs as a plain node child (no tsx), fed one JSON line per run. */
async function startFloor(dir: string): Promise<Floor> {
  const child: ChildProcess = spawn(process.execPath, ['bench/anchors/media-floor.mjs', dir], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp' },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const waiting: { done: (line: string) => void; fail: (error: Error) => void }[] = [];
  lines.on('line', (line) => waiting.shift()?.done(line));
  child.once('exit', (code, signal) => {
    const error = new Error(`media floor exited (${signal ?? code})`);
    waiting.splice(0).forEach((wait) => wait.fail(error));
  });
  const nextLine = () => new Promise<string>((done, fail) => waiting.push({ done, fail }));
  await nextLine();
  return {
    pid: child.pid ?? 0,
    async run(from, to, concurrency) {
      const answer = nextLine();
      child.stdin!.write(`${JSON.stringify({ from, to, concurrency })}\n`);
      return JSON.parse(await answer) as Run;
    },
    stop: () =>
      new Promise((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once('exit', () => done());
        child.stdin!.end();
        setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
      }),
  };
}

async function createDatabase(
  env: BenchEnv,
  teardown: Teardown,
  runId: string,
  pepper: string,
): Promise<{ databaseUrl: string; apiKey: string }> {
  const database = `svc_bench_${runId}_media`;
  let apiKey = '';
  const databaseUrl = await migratedDatabase(env.DATABASE_URL, database, teardown, async (orm) => {
    // A user and the key it uploads with (its rate limit is the raised user limit).
    apiKey = await createProViewer(orm, pepper);
  });
  return { databaseUrl, apiKey };
}

/** The store settings of the API: a directory under `work`, or SeaweedFS (BENCH_MEDIA_S3=1). */
async function storeEnv(
  env: BenchEnv,
  teardown: Teardown,
  work: string,
): Promise<{ label: string; vars: Record<string, string> }> {
  if (env.BENCH_MEDIA_S3 === '0') {
    const dir = join(work, 'media');
    return { label: `directory ${dir}`, vars: { MEDIA_DIR: dir } };
  }
  const store = await startSeaweedFs({ dir: join(work, 'seaweedfs'), weed: await findWeed() });
  teardown.add('stop seaweedfs', () => store.stop());
  return {
    label: `SeaweedFS S3 at ${store.endpoint}`,
    vars: {
      MEDIA_S3_ENDPOINT: store.endpoint,
      MEDIA_S3_REGION: store.region,
      MEDIA_S3_BUCKET: store.bucket,
      MEDIA_S3_ACCESS_KEY_ID: store.accessKeyId,
      MEDIA_S3_SECRET_ACCESS_KEY: store.secretAccessKey,
    },
  };
}

export async function benchMedia(): Promise<void> {
  const env = benchEnv.parse(process.env);
  const runId = `${Date.now().toString(36)}${hex(3)}`;
  const prefix = `svc-bench:${runId}:`;
  const pepper = hex(32);
  const taskQueue = `bench-media-${runId}`;
  const { BENCH_MEDIA_UPLOADS: perRound, BENCH_MEDIA_CONCURRENCY: concurrency } = env;
  const warmup = env.BENCH_MEDIA_WARMUP;
  const teardown = new Teardown('media');
  const started = Date.now();
  console.log(
    `media: POST /media on node dist/api/main.js (NODE_ENV=production, default LOG_LEVEL, ` +
      `x-api-key) vs processImage in a bare node process (bench/anchors/media-floor.mjs); ` +
      `${env.BENCH_ROUNDS} rounds × ${perRound} uploads per side, ${concurrency} in flight, ` +
      `${warmup} uncounted first; ${machineLoad()}`,
  );
  try {
    await build(env);
    const work = mkdtempSync(join(tmpdir(), 'bench-media-'));
    teardown.add('remove temporary files', async () =>
      rmSync(work, { recursive: true, force: true }),
    );
    const redis = new Redis(env.REDIS_URL);
    teardown.add('delete redis keys', async () => {
      await deleteKeysWithPrefix(redis, prefix);
      redis.disconnect();
    });
    const { databaseUrl, apiKey } = await createDatabase(env, teardown, runId, pepper);
    const store = await storeEnv(env, teardown, work);

    // Distinct JPEGs, one per upload of either side; the floor reads them from `jpegs`.
    const count = warmup + env.BENCH_ROUNDS * perRound;
    const jpegs = join(work, 'jpegs');
    mkdirSync(jpegs);
    const generating = Date.now();
    const bodies: Buffer[] = [];
    let totalBytes = 0;
    for (let i = 0; i < count; i += 2) {
      const pair = await Promise.all(
        [i, i + 1].filter((n) => n < count).map(async (n) => ({ n, jpeg: await makeJpeg(n) })),
      );
      for (const { n, jpeg } of pair) {
        const name = `${String(n).padStart(5, '0')}.jpg`;
        writeFileSync(join(jpegs, name), jpeg);
        bodies[n] = multipartBody(jpeg, name);
        totalBytes += jpeg.length;
      }
    }
    console.log(
      `  ${count} distinct JPEGs, ${IMAGE.width} × ${IMAGE.height} px, quality ` +
        `${IMAGE.quality}, mean ${fmt(totalBytes / count / 1e6, 2)} MB, made in ` +
        `${((Date.now() - generating) / 1000).toFixed(1)} s; store: ${store.label}`,
    );

    teardown.add('terminate temporal workflows', () =>
      terminateWorkflows(env.TEMPORAL_ADDRESS, [taskQueue], apiWorkflows),
    );
    teardown.add('stop servers', stopServers);
    const api = await startServer(
      'api',
      ['dist/api/main.js'],
      {
        NODE_ENV: 'production',
        DATABASE_URL: databaseUrl,
        ...(env.DATABASE_POOL_MAX ? { DATABASE_POOL_MAX: env.DATABASE_POOL_MAX } : {}),
        REDIS_URL: env.REDIS_URL,
        REDIS_KEY_PREFIX: prefix,
        TEMPORAL_ADDRESS: env.TEMPORAL_ADDRESS,
        TEMPORAL_TASK_QUEUE: taskQueue,
        RATE_LIMIT_ANONYMOUS_RPM: NO_LIMIT_RPM,
        RATE_LIMIT_USER_RPM: NO_LIMIT_RPM,
        MEDIA_UPLOADS_PER_HOUR: UPLOADS_PER_HOUR,
        JWT_SECRET: hex(32),
        API_KEY_PEPPER: pepper,
        ...store.vars,
      },
      '/healthz',
    );
    const floor = await startFloor(jpegs);
    teardown.add('stop the floor', () => floor.stop());
    console.log(`  pids: api ${api.pid}, floor ${floor.pid}, client ${process.pid}`);

    // Baseline: the API idle after start (the floor's JPEGs are loaded, nothing uploaded yet).
    await new Promise((done) => setTimeout(done, 1_000));
    const baselineKb = memoryKb(api.pid).rss;
    const apiRss = new RssSampler(api.pid);
    const floorRss = new RssSampler(floor.pid);
    const floorBaselineKb = memoryKb(floor.pid).rss;
    teardown.add('stop the samplers', async () => {
      apiRss.stop();
      floorRss.stop();
    });

    if (warmup > 0) {
      const ours = await measureOurs(api, apiKey, bodies, 0, warmup, concurrency);
      if (ours.failed > 0) throw new Error(`warm-up: ${ours.failed} of ${warmup} uploads not 201`);
      await floor.run(0, warmup, concurrency);
    }

    // Each round alternates the sides slice by slice (which one starts flips per round), so
    // a change in the machine's load lands on both alike; a side's rate in a round is its
    // uploads over the sum of its slices' wall times.
    const rows: { ours: Run; floor: Run }[] = [];
    const slice = Math.ceil(perRound / env.BENCH_MEDIA_SLICES);
    for (let round = 0; round < env.BENCH_ROUNDS; round++) {
      const ours = emptyRun();
      const bare = emptyRun();
      const oursFirst = round % 2 === 0;
      const end = warmup + (round + 1) * perRound;
      for (let from = warmup + round * perRound; from < end; from += slice) {
        const to = Math.min(end, from + slice);
        for (const side of oursFirst ? ['ours', 'floor'] : ['floor', 'ours']) {
          if (side === 'ours')
            addRun(ours, await measureOurs(api, apiKey, bodies, from, to, concurrency));
          else addRun(bare, await floor.run(from, to, concurrency));
        }
      }
      rows.push({ ours, floor: bare });
      console.log(
        `  round ${round + 1} (${oursFirst ? 'ours first' : 'floor first'}): ours ` +
          `${fmt(rateOf(ours), 2)}/s, floor ${fmt(rateOf(bare), 2)}/s, ratio ` +
          `${fmt(rateOf(ours) / rateOf(bare), 2)}; load average ${loadavg()[0]!.toFixed(1)}`,
      );
    }
    const apiPeakKb = apiRss.peakKb();
    const floorPeakKb = floorRss.peakKb();
    apiRss.stop();
    floorRss.stop();

    const ratio = median(rows.map((r) => rateOf(r.ours) / rateOf(r.floor)));
    const cpuRatio = median(
      rows.map((r) => r.ours.cpuUs / r.ours.done / (r.floor.cpuUs / r.floor.done)),
    );
    const failed = rows.reduce((sum, r) => sum + r.ours.failed + r.floor.failed, 0);
    console.log(
      `media uploads: medians over ${rows.length} rounds of ${perRound} uploads per side, ` +
        `${concurrency} in flight (ratios: medians of per-round ratios)`,
    );
    const summary = (runs: Run[]) => ({
      rate: median(runs.map(rateOf)),
      cpuMs: median(runs.map((run) => run.cpuUs / 1000 / run.done)),
      p50: median(runs.map((run) => median(run.latencies))),
      failed: runs.reduce((sum, run) => sum + run.failed, 0),
    });
    const [o, f] = [summary(rows.map((r) => r.ours)), summary(rows.map((r) => r.floor))];
    printColumns(
      [
        'side',
        'uploads/s',
        '× floor',
        'CPU ms/upload',
        'p50 ms',
        'RSS base MB',
        'RSS peak MB',
        'failed',
      ],
      [
        [
          `POST /media (${env.BENCH_MEDIA_S3 === '1' ? 'SeaweedFS' : 'directory store'})`,
          fmt(o.rate, 2),
          fmt(ratio, 2),
          fmt(o.cpuMs, 0),
          fmt(o.p50, 0),
          mb(baselineKb),
          mb(apiPeakKb),
          fmt(o.failed),
        ],
        [
          'floor: processImage, bare node',
          fmt(f.rate, 2),
          '1',
          fmt(f.cpuMs, 0),
          fmt(f.p50, 0),
          mb(floorBaselineKb),
          mb(floorPeakKb),
          fmt(f.failed),
        ],
      ],
    );
    console.log(
      `  CPU per upload: ours ${fmt(cpuRatio, 2)} × the floor's (each process's own user + ` +
        `system time; ours: multipart, auth, pipeline, store write, row, not PostgreSQL's)`,
    );
    console.log(
      `  API peak RSS ${mb(apiPeakKb)} MB (baseline ${mb(baselineKb)} MB, +` +
        `${mb(apiPeakKb - baselineKb)} MB), sampled every ${SAMPLE_MS} ms, and VmHWM`,
    );
    console.log(
      `  ${ratio >= GOAL && failed === 0 ? 'met    ' : 'NOT met'}  uploads of a 1 MB JPEG at ` +
        `${concurrency} in parallel ≥ ${GOAL} × the same sharp pipeline in a bare script: ` +
        `${fmt(ratio, 2)}` +
        (failed > 0 ? ` [${failed} uploads failed: not a clean measurement]` : ''),
    );
    console.log(`  took ${((Date.now() - started) / 60_000).toFixed(1)} min; ${machineLoad()}`);
  } finally {
    await teardown.run();
  }
}

if (require.main === module) {
  benchMedia().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
