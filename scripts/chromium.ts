import { spawn } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, readFileSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress } from 'node:zlib';
import { chromium, type Browser } from 'playwright-core';
import { TOOLS_DIR } from './tools';

/**
 * A headless Chromium driven by playwright-core, for the build page's browser test
 * (test/integration/build-page.test.ts) and the screenshots (scripts/screenshots.ts). Never a
 * browser Playwright downloads (its hosts are not package registries). In order:
 * `CHROMIUM_PATH`; the system's (`/usr/bin/chromium`, Debian's `chromium`); else the one the
 * npm package `@sparticuz/chromium` carries (a devDependency: a headless-shell build with its
 * own NSS libraries and fonts), unpacked once into `.data/tools`. Every launch gets a fresh
 * temporary profile (user data dir), removed when the browser closes.
 */

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const SYSTEM_CHROMIUM = '/usr/bin/chromium';

interface Executable {
  path: string;
  /** What the browser needs in its environment (the npm build's libraries and fonts). */
  env: Record<string, string>;
}

/** The package's directory of brotli files and its version (which names the unpacked copy). */
function npmPackage(): { bin: string; version: string } {
  // The package exports only its entry point: its root is two levels above the CommonJS build.
  const root = join(dirname(require.resolve('@sparticuz/chromium')), '..', '..');
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    version: string;
  };
  return { bin: join(root, 'bin'), version };
}

/** A brotli file decompressed to `target`, or a brotli tarball unpacked into it (`tar -x`). */
async function inflate(file: string, target: string, tar: boolean): Promise<void> {
  if (!tar) {
    await pipeline(
      createReadStream(file),
      createBrotliDecompress(),
      createWriteStream(target, { mode: 0o755 }),
    );
    return;
  }
  const child = spawn('tar', ['-x', '-C', target], { stdio: ['pipe', 'ignore', 'inherit'] });
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  const [piped, code] = await Promise.allSettled([
    pipeline(createReadStream(file), createBrotliDecompress(), child.stdin),
    exited,
  ]);
  // tar stops reading at the archive's end marker, before the record's zero padding: a pipe it
  // closed then is no error. Its exit status is the verdict.
  if (code.status === 'fulfilled' && code.value === 0) return;
  const why: unknown = code.status === 'rejected' ? code.reason : `exit ${code.value}`;
  throw new Error(`tar -x of ${file} failed (${String(why)})`, {
    cause: piped.status === 'rejected' ? piped.reason : undefined,
  });
}

/**
 * The npm package's Chromium, unpacked into `.data/tools/chromium-<version>` on first use: the
 * binary, its NSS libraries (`lib/`), SwiftShader and fonts, with a fontconfig file of its own
 * (the package's names /tmp). Unpacked beside and renamed into place, so a parallel run never
 * starts a half-written browser.
 */
async function npmChromium(): Promise<Executable> {
  const { bin, version } = npmPackage();
  const dir = join(TOOLS_DIR, `chromium-${version}`);
  const fontsConf = (root: string) =>
    [
      '<?xml version="1.0"?>',
      '<!DOCTYPE fontconfig SYSTEM "fonts.dtd">',
      `<fontconfig><dir>${root}/fonts</dir><cachedir>${root}/fonts-cache</cachedir></fontconfig>`,
      '',
    ].join('\n');
  if (!existsSync(join(dir, 'chromium'))) {
    const partial = `${dir}.${process.pid}.partial`;
    await rm(partial, { recursive: true, force: true });
    await mkdir(partial, { recursive: true });
    try {
      await Promise.all([
        inflate(join(bin, 'chromium.br'), join(partial, 'chromium'), false),
        inflate(join(bin, 'al2023.tar.br'), partial, true),
        inflate(join(bin, 'fonts.tar.br'), partial, true),
        inflate(join(bin, 'swiftshader.tar.br'), partial, true),
      ]);
      await writeFile(join(partial, 'fonts.conf'), fontsConf(dir));
      await rename(partial, dir).catch(async (error: NodeJS.ErrnoException) => {
        // Another process put its copy in place first: that one is used.
        if (!existsSync(join(dir, 'chromium'))) throw error;
        await rm(partial, { recursive: true, force: true });
      });
    } catch (error) {
      await rm(partial, { recursive: true, force: true });
      throw error;
    }
  }
  const libraries = [join(dir, 'lib'), dir, process.env.LD_LIBRARY_PATH].filter(Boolean);
  return {
    path: join(dir, 'chromium'),
    env: { LD_LIBRARY_PATH: libraries.join(':'), FONTCONFIG_PATH: dir },
  };
}

/** Which Chromium runs: `CHROMIUM_PATH`, the system's, else the npm package's. */
export async function chromiumExecutable(): Promise<Executable> {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) {
    if (!existsSync(configured)) {
      throw new Error(`CHROMIUM_PATH=${configured} does not exist`);
    }
    return { path: configured, env: {} };
  }
  if (existsSync(SYSTEM_CHROMIUM)) return { path: SYSTEM_CHROMIUM, env: {} };
  // The npm package's build is Linux x86-64 only.
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `no Chromium: there is none at ${SYSTEM_CHROMIUM} and the npm package's build runs on ` +
        'Linux x86-64 only; set CHROMIUM_PATH to a Chromium or Chrome binary.',
    );
  }
  return npmChromium();
}

/** A browser test must not pass without a browser: no Chromium at all is an error. */
export async function launchChromium(): Promise<Browser> {
  const executable = await chromiumExecutable();
  return chromium.launch({
    executablePath: executable.path,
    headless: true,
    args: CHROMIUM_ARGS,
    env: { ...process.env, ...executable.env },
  });
}
