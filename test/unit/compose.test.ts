import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { referenceAddresses } from '../../scripts/chain-deployment';
import { loadConfig } from '../../shared/config';
import { searchAttributeCommands } from '../../shared/temporal/search-attributes';
import { referenceFactories, referencePaymentTokens } from '../helpers/reference';

/**
 * docker-compose.yml without a Docker engine: the file as compose reads it. The stack runs with
 * NODE_ENV=production, where the chain 31337 defaults of shared/config.ts do not apply, so its
 * chain settings must name the reference deployment (docs/chain.md "Deployment") themselves.
 */

interface Service {
  build?: string | { context: string; target?: string };
  image?: string;
  entrypoint?: string[];
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  restart?: string;
}

const ROOT = join(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
// `merge`: the services share their environment through `<<: *app-env`.
const compose = parse(read('docker-compose.yml'), { merge: true }) as {
  services: Record<string, Service>;
};
const services = compose.services;
const reference = referenceAddresses();

describe('docker-compose.yml', () => {
  it('deploys the reference contracts once anvil answers, before the API and the worker start', () => {
    const deploy = services['chain-deploy']!;
    expect(deploy.command).toEqual(['npm', 'run', 'chain:deploy']);
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> })
      .scripts;
    expect(scripts['chain:deploy']).toBe('tsx scripts/chain-deploy.ts');
    // A one-shot job: a restart policy would run it forever.
    expect(deploy.restart ?? 'no').toBe('no');
    expect(deploy.environment?.CHAIN_RPC_URLS).toBe('31337=http://anvil:8545');
    expect(deploy.depends_on).toEqual({ anvil: { condition: 'service_healthy' } });
    expect(services.anvil?.healthcheck?.test).toEqual(expect.arrayContaining(['CMD']));
    for (const name of ['api', 'worker']) {
      expect(services[name]?.depends_on?.['chain-deploy']).toEqual({
        condition: 'service_completed_successfully',
      });
    }
  });

  it('runs the deployment in a stage that has solc-js, tsx, the script and the contract sources', () => {
    const build = services['chain-deploy']!.build;
    expect(build).toEqual({ context: '.', target: expect.any(String) });
    const target = (build as { target: string }).target;
    const dockerfile = read('Dockerfile');
    const stage = new RegExp(
      `^FROM \\S+ AS ${target}$([\\s\\S]*?)(?=^FROM |(?![\\s\\S]))`,
      'm',
    ).exec(dockerfile)?.[1];
    expect(stage).toBeDefined();
    // Dev dependencies installed (solc and tsx are devDependencies) and the whole context copied.
    expect(stage).toMatch(/^RUN npm (install|ci)\b/m);
    expect(stage).not.toMatch(/--omit=dev|--production/);
    expect(stage).toMatch(/^COPY \. \.$/m);
    const devDependencies = (
      JSON.parse(read('package.json')) as { devDependencies: Record<string, string> }
    ).devDependencies;
    expect(Object.keys(devDependencies)).toEqual(expect.arrayContaining(['solc', 'tsx']));
    const ignored = read('.dockerignore')
      .split('\n')
      .map((line) => line.trim());
    for (const needed of ['contracts', 'scripts', 'shared']) {
      expect(ignored.filter((pattern) => pattern && needed.startsWith(pattern))).toEqual([]);
    }
  });

  it('configures every factory and payment token of the reference deployment, and only those', () => {
    for (const name of ['migrate', 'chain-deploy', 'api', 'worker']) {
      // Every process of the stack accepts the environment as production does.
      const config = loadConfig(services[name]!.environment!);
      expect(config.env).toBe('production');
      expect(config.launchFactories).toEqual({ 31337: referenceFactories(reference) });
      expect(config.chainPaymentTokens).toEqual({ 31337: referencePaymentTokens(reference) });
    }
  });

  it('registers the workflow search attributes once Temporal answers, before the API and the worker start', () => {
    const job = services['temporal-search-attributes']!;
    expect(job.restart ?? 'no').toBe('no');
    expect(job.entrypoint).toEqual(['sh', '-c']);
    const api = services.api!.environment!;
    expect(job.environment?.TEMPORAL_ADDRESS).toBe(api.TEMPORAL_ADDRESS);
    const script = (job.command ?? []).join('\n').split('\n');
    // `set -e`: a refused registration fails the job, and with it the `up` of the API.
    expect(script[0]).toBe('set -e');
    // Exactly the commands an operator is told to run, so a new attribute cannot be left out.
    const creates = script.filter((line) => line.includes('search-attribute create'));
    expect(creates).toEqual(searchAttributeCommands(api.TEMPORAL_NAMESPACE!));
    for (const name of ['api', 'worker']) {
      expect(services[name]?.depends_on?.['temporal-search-attributes']).toEqual({
        condition: 'service_completed_successfully',
      });
    }
  });
});
