import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { loadConfig } from '../../shared/config';

/**
 * Defaults that follow PORT, and `.env.example` as a file a developer copies to `.env` as is
 * (`npm run dev` loads `.env` with Node's own parser, the one used here).
 */

const root = join(__dirname, '..', '..');

describe('defaults that follow PORT', () => {
  it('are localhost:3000 without PORT', () => {
    const config = loadConfig({});
    expect(config.siweDomain).toBe('localhost:3000');
    expect(config.publicBaseUrl).toBe('http://localhost:3000');
  });

  it('follow another PORT: the SIWE domain and the public base URL', () => {
    const config = loadConfig({ PORT: '4100' });
    expect(config.port).toBe(4100);
    expect(config.siweDomain).toBe('localhost:4100');
    expect(config.publicBaseUrl).toBe('http://localhost:4100');
  });

  it('give way to SIWE_DOMAIN and PUBLIC_BASE_URL when set', () => {
    const config = loadConfig({
      PORT: '4100',
      SIWE_DOMAIN: 'app.example.com',
      PUBLIC_BASE_URL: 'https://api.example.com/',
    });
    expect(config.siweDomain).toBe('app.example.com');
    expect(config.publicBaseUrl).toBe('https://api.example.com');
  });
});

describe('.env.example', () => {
  const example = readFileSync(join(root, '.env.example'), 'utf8');
  const parsed = parseEnv(example);

  it('parses, and loads as a valid development configuration', () => {
    expect(Object.keys(parsed).length).toBeGreaterThan(20);
    expect(() => loadConfig(parsed)).not.toThrow();
  });

  it('copied as is, changes no setting', () => {
    expect(loadConfig(parsed)).toEqual(loadConfig({}));
    expect(loadConfig({ ...parsed, NODE_ENV: 'test' })).toEqual(loadConfig({ NODE_ENV: 'test' }));
  });

  it('leaves every service npm run dev stands in for unset, so the stand-ins still start', () => {
    // scripts/dev.ts starts a stand-in for each of these when it is unset or empty.
    for (const name of [
      'DATABASE_URL',
      'DATABASE_POOL_MAX',
      'REDIS_URL',
      'TEMPORAL_ADDRESS',
      'CHAIN_RPC_URLS',
      'CRYPTOBOT_API_TOKEN',
      'PLATEGA_MERCHANT_ID',
      'MATRIX_HOMESERVER_URL',
      'BOT_TOKENS',
    ]) {
      expect({ name, value: parsed[name] || undefined }).toEqual({ name, value: undefined });
    }
  });

  it('never sets a value Node’s parser would cut at a #', () => {
    // `A=x#y` loads as "x": an unquoted value keeps nothing after a `#`.
    for (const line of example.split('\n')) {
      const match = /^([A-Z0-9_]+)=(.*)$/.exec(line);
      if (!match) continue;
      const raw = match[2]!.replace(/\s+#.*$/, '').trim();
      expect({ name: match[1], value: parsed[match[1]!] }).toEqual({ name: match[1], value: raw });
    }
  });
});
