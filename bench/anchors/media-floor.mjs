// The floor of bench/media.ts: exactly the image pipeline of `POST /media`, `processImage` from
// shared/media/images.ts as built into dist/ (the same compiled code and the same sharp the API
// runs), in a bare `node` process with no HTTP, no auth, no store and no database. Plain
// JavaScript run by plain `node`, as our API runs from dist/, so the gap to it is our request
// path and nothing else.
//
//   node bench/anchors/media-floor.mjs <dir of JPEGs>
//
// Reads every *.jpg of the directory into memory (sorted by name), then answers one JSON line
// on stdout per JSON line on stdin: {"from": i, "to": j, "concurrency": c} runs processImage on
// images [i, j) with c in flight and answers {"ms", "done", "failed", "cpuUs", "maxRssKb",
// "latencies"}.
// Answers {"ready": n} once the images are loaded. Exits when stdin closes.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const require = createRequire(import.meta.url);
const { processImage } = require('../../dist/shared/media/images.js');

const dir = process.argv[2];
if (!dir) throw new Error('usage: node bench/anchors/media-floor.mjs <dir of JPEGs>');
const images = readdirSync(dir)
  .filter((name) => name.endsWith('.jpg'))
  .sort()
  .map((name) => readFileSync(join(dir, name)));

const cpuUs = () => {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
};

async function run({ from, to, concurrency }) {
  let next = from;
  let failed = 0;
  const latencies = [];
  const cpu = cpuUs();
  const started = performance.now();
  const worker = async () => {
    while (next < to) {
      const image = images[next++];
      const at = performance.now();
      try {
        await processImage(image);
        latencies.push(performance.now() - at);
      } catch {
        failed += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return {
    ms: performance.now() - started,
    done: to - from,
    failed,
    cpuUs: cpuUs() - cpu,
    maxRssKb: process.resourceUsage().maxRSS,
    latencies,
  };
}

const lines = createInterface({ input: process.stdin });
let queue = Promise.resolve();
lines.on('line', (line) => {
  queue = queue.then(async () => {
    process.stdout.write(`${JSON.stringify(await run(JSON.parse(line)))}\n`);
  });
});
lines.on('close', () => void queue.then(() => process.exit(0)));
process.stdout.write(`${JSON.stringify({ ready: images.length })}\n`);
