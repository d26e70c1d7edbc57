import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_VARIABLES, ConfigError, loadConfig } from '../../shared/config';

describe('config', () => {
  it('fills development defaults', () => {
    const config = loadConfig({});
    expect(config.env).toBe('development');
    expect(config.port).toBe(3000);
    expect(config.webhookAllowedHosts).toEqual(['127.0.0.1', 'localhost']);
    expect(config.buildFetchAllowedHosts).toEqual(['127.0.0.1', 'localhost']);
    expect(config.lowBalanceThresholdFlow).toBe(10);
    expect(config.temporal).toEqual({
      address: '127.0.0.1:7233',
      namespace: 'default',
      taskQueue: 'agent-platform',
    });
  });

  it('parses lists and chain RPC pairs', () => {
    const config = loadConfig({
      INTERNAL_TOKENS: 'a, b,,c',
      CHAIN_RPC_URLS: '31337=http://127.0.0.1:8545, 97=https://rpc.example/bsc',
      WEBHOOK_ALLOWED_HOSTS: '',
      BUILD_FETCH_ALLOWED_HOSTS: 'pages.internal',
    });
    expect(config.buildFetchAllowedHosts).toEqual(['pages.internal']);
    expect(config.internalTokens).toEqual(['a', 'b', 'c']);
    expect(config.chainRpcUrls).toEqual({
      31337: 'http://127.0.0.1:8545',
      97: 'https://rpc.example/bsc',
    });
    expect(config.webhookAllowedHosts).toEqual([]);
  });

  it('fails with a readable list of every problem', () => {
    expect(() =>
      loadConfig({ PORT: 'eighty', CHAIN_RPC_URLS: 'nope', JWT_SECRET: 'short' }),
    ).toThrow(ConfigError);
    try {
      loadConfig({ PORT: 'eighty', CHAIN_RPC_URLS: 'nope', JWT_SECRET: 'short' });
    } catch (err) {
      const message = (err as Error).message;
      expect(message).toMatch(/^Invalid configuration:/);
      expect(message).toMatch(/PORT: /);
      expect(message).toMatch(/CHAIN_RPC_URLS: "nope" is not <chainId>=<url>/);
      expect(message).toMatch(/JWT_SECRET: /);
    }
  });

  it('refuses development secrets and missing services in production', () => {
    try {
      loadConfig({ NODE_ENV: 'production' });
      throw new Error('expected a ConfigError');
    } catch (err) {
      expect((err as ConfigError).problems).toEqual(
        expect.arrayContaining([
          'DATABASE_URL: is required',
          'REDIS_URL: is required',
          'JWT_SECRET: must be set in production',
          'API_KEY_PEPPER: must be set in production',
        ]),
      );
    }
    const production = loadConfig({
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://db/x',
      REDIS_URL: 'redis://r:6379',
      JWT_SECRET: 'p'.repeat(40),
      API_KEY_PEPPER: 'q'.repeat(40),
    });
    expect(production.webhookAllowedHosts).toEqual([]);
    expect(production.buildFetchAllowedHosts).toEqual([]);
  });
});

describe('TRUST_PROXY', () => {
  it('is off by default, and takes true or a list of trusted proxies', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8,127.0.0.1' }).trustProxy).toBe(
      '10.0.0.0/8,127.0.0.1',
    );
  });

  it('documents every variable it reads in README.md and .env.example', () => {
    const root = join(__dirname, '..', '..');
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const example = readFileSync(join(root, '.env.example'), 'utf8');
    expect(CONFIG_VARIABLES.length).toBeGreaterThan(20);
    for (const name of CONFIG_VARIABLES) {
      expect({ name, inReadme: readme.includes(`\`${name}\``) }).toEqual({ name, inReadme: true });
      expect({ name, inExample: new RegExp(`^#? ?${name}=`, 'm').test(example) }).toEqual({
        name,
        inExample: true,
      });
    }
  });

  it('builds the LLM settings only when LLM_BASE_URL is set', () => {
    expect(loadConfig({}).llm).toBeNull();
    expect(loadConfig({ LLM_BASE_URL: 'http://127.0.0.1:9/v1/', LLM_API_KEY: 'k' }).llm).toEqual({
      baseUrl: 'http://127.0.0.1:9/v1',
      apiKey: 'k',
      model: 'gpt-4o-mini',
      timeoutMs: 60_000,
    });
  });

  it('gives the AI fill a 20 s deadline and 10 a minute, 100 a day per user by default', () => {
    expect(loadConfig({}).aiFill).toEqual({ timeoutMs: 20_000, perMinute: 10, perDay: 100 });
  });
});

describe('CHAIN_FLOW_TOKENS', () => {
  it('takes <chainId>=<instance address> pairs; unset, no chain names one', () => {
    expect(
      loadConfig({ CHAIN_FLOW_TOKENS: ` 56=0x${'ab'.repeat(20)} ,97=0x${'Cd'.repeat(20)}` })
        .chainFlowTokens,
    ).toEqual({ 56: `0x${'ab'.repeat(20)}`, 97: `0x${'Cd'.repeat(20)}` });
    expect(loadConfig({}).chainFlowTokens).toEqual({});
  });

  it('names the expected form of a bad pair', () => {
    for (const pair of ['56=0xabc', '56:dpnm=0x' + 'ab'.repeat(20), '0x' + 'ab'.repeat(20)]) {
      expect(() => loadConfig({ CHAIN_FLOW_TOKENS: pair })).toThrow(
        `CHAIN_FLOW_TOKENS: "${pair}" is not <chainId>=<0x address>`,
      );
    }
  });
});

describe('CHAIN_PAYMENT_TOKENS', () => {
  const production = {
    NODE_ENV: 'production',
    DATABASE_URL: 'postgres://db/x',
    REDIS_URL: 'redis://r:6379',
    JWT_SECRET: 'p'.repeat(40),
    API_KEY_PEPPER: 'q'.repeat(40),
  };

  it('takes <chainId>:<role>=<address> pairs, which replace the local chain’s defaults', () => {
    expect(
      loadConfig({
        CHAIN_PAYMENT_TOKENS: ` 97:usdt=0x${'ab'.repeat(20)}, 8453:virtualsPayment=0x${'CD'.repeat(20)},97:virtualsPayment=0x${'01'.repeat(20)}`,
      }).chainPaymentTokens,
    ).toEqual({
      97: { usdt: `0x${'ab'.repeat(20)}`, virtualsPayment: `0x${'01'.repeat(20)}` },
      8453: { virtualsPayment: `0x${'CD'.repeat(20)}` },
    });
  });

  it('defaults to chain 31337’s test tokens outside production only', () => {
    expect(Object.keys(loadConfig({}).chainPaymentTokens[31337] ?? {})).toEqual([
      'virtualsPayment',
      'usdt',
    ]);
    expect(loadConfig(production).chainPaymentTokens).toEqual({});
  });

  it('names the expected form of a bad pair', () => {
    for (const pair of [
      '97:usdc=0x' + 'ab'.repeat(20),
      '97:usdt=0xabc',
      'usdt=0x' + 'ab'.repeat(20),
    ]) {
      expect(() => loadConfig({ CHAIN_PAYMENT_TOKENS: pair })).toThrow(
        `CHAIN_PAYMENT_TOKENS: "${pair}" is not <chainId>:<virtualsPayment|usdt>=<0x address>`,
      );
    }
  });
});

describe('payment providers', () => {
  const production = {
    NODE_ENV: 'production',
    DATABASE_URL: 'postgres://db/x',
    REDIS_URL: 'redis://r:6379',
    JWT_SECRET: 'p'.repeat(40),
    API_KEY_PEPPER: 'q'.repeat(40),
  };

  it('enables a provider only with its credentials', () => {
    const none = loadConfig(production).payments;
    expect({ cryptobot: none.cryptobot, platega: none.platega, usdt: none.usdtBep20 }).toEqual({
      cryptobot: null,
      platega: null,
      usdt: null,
    });
    const both = loadConfig({
      ...production,
      CRYPTOBOT_API_TOKEN: '1234:AAtoken',
      PLATEGA_MERCHANT_ID: 'merchant',
      PLATEGA_SECRET: 'secret',
      PLATEGA_RATE_PER_USD: '92.5',
    }).payments;
    expect(both.cryptobot).toMatchObject({
      apiUrl: 'https://pay.crypt.bot/api',
      acceptedAssets: [],
    });
    expect(both.platega).toMatchObject({ currency: 'RUB', paymentMethod: 2, ratePerUsd: 92.5 });
  });

  it('refuses Platega in production without an exchange rate, and allows a placeholder elsewhere', () => {
    const platega = { PLATEGA_MERCHANT_ID: 'merchant', PLATEGA_SECRET: 'secret' };
    expect(() => loadConfig({ ...production, ...platega })).toThrow(
      'PLATEGA_RATE_PER_USD: is required when Platega is enabled',
    );
    expect(loadConfig(platega).payments.platega?.ratePerUsd).toBe(100);
  });

  it('runs usdt_bep20 on the local chain outside production, to anvil account 9', () => {
    expect(loadConfig({}).payments.usdtBep20).toEqual({
      chainId: 31337,
      treasury: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720',
      token: '0x536cce5883F2D6D2f5B52A479cf962ab53396862',
    });
  });
});
