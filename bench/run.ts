import { benchAuthOverhead } from './auth-overhead';
import { benchHotReads } from './hot-reads';
import { benchHttpOverhead } from './http-overhead';
import { benchSseFanout } from './sse-fanout';
import { benchWebhookThroughput } from './webhook-throughput';

/** `npm run bench`: every benchmark in turn; each prints its own side-by-side figures. */
async function main(): Promise<void> {
  await benchHttpOverhead();
  await benchAuthOverhead();
  await benchHotReads();
  await benchSseFanout();
  await benchWebhookThroughput();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
