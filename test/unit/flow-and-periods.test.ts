import {
  API_KEY_FORMAT,
  apiKeyPrefix,
  digestsEqual,
  generateApiKey,
  hashApiKey,
} from '../../shared/domain/api-key';
import { flowNumber, formatFlow, parseFlow } from '../../shared/domain/flow';
import { periodEnd, periodStart, spentInPeriod } from '../../shared/domain/spend-period';

describe('FLOW amounts', () => {
  it.each([
    ['100', 100_000_000n],
    ['0.5', 500_000n],
    ['1.2345679', 1_234_567n], // rounded down past 6 decimals
    ['007.10', 7_100_000n],
    [' 3 ', 3_000_000n],
    [0.3, 300_000n], // not 0.299999 from binary floating point
    [12.3456789, 12_345_678n],
    [1e-7, 0n],
    [0, 0n],
  ])('parses %j', (input, micro) => {
    expect(parseFlow(input)).toBe(micro);
  });

  it.each([
    '-1',
    '1e5',
    'abc',
    '',
    '.5',
    '1.2.3',
    -0.5,
    Number.NaN,
    Infinity,
    2e12,
    '2000000000000',
  ])('refuses %j', (input) => {
    expect(parseFlow(input)).toBeNull();
  });

  it('formats exactly and briefly', () => {
    expect(formatFlow(100_000_000n)).toBe('100');
    expect(formatFlow(1_500_000n)).toBe('1.5');
    expect(formatFlow(1n)).toBe('0.000001');
    expect(formatFlow(-2_500_000n)).toBe('-2.5');
    expect(flowNumber(12_345_678n)).toBe(12.345678);
  });
});

describe('spend periods (UTC)', () => {
  const at = (iso: string) => new Date(iso);
  it.each([
    ['day', '2026-11-22T23:59:59.999Z', '2026-11-22T00:00:00.000Z', '2026-11-23T00:00:00.000Z'],
    ['week', '2026-11-22T10:00:00.000Z', '2026-11-16T00:00:00.000Z', '2026-11-23T00:00:00.000Z'],
    ['week', '2026-11-23T00:00:00.000Z', '2026-11-23T00:00:00.000Z', '2026-11-30T00:00:00.000Z'],
    ['month', '2026-12-31T23:59:59.999Z', '2026-12-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z'],
    ['month', '2028-02-29T12:00:00.000Z', '2028-02-01T00:00:00.000Z', '2028-03-01T00:00:00.000Z'],
  ] as const)('%s containing %s starts %s and ends %s', (period, now, start, end) => {
    expect(periodStart(period, at(now)).toISOString()).toBe(start);
    expect(periodEnd(period, at(now))?.toISOString()).toBe(end);
  });

  it('counts a stored spend only within the period it belongs to', () => {
    const counted = { used: 7n, periodStart: new Date('2026-11-22T00:00:00.000Z') };
    expect(spentInPeriod('day', counted, new Date('2026-11-22T23:59:59.999Z'))).toBe(7n);
    expect(spentInPeriod('day', counted, new Date('2026-11-23T00:00:00.000Z'))).toBe(0n);
  });

  it('forever never rolls over', () => {
    expect(periodStart('forever', new Date()).getTime()).toBe(0);
    expect(periodEnd('forever', new Date())).toBeNull();
  });
});

describe('API key credentials', () => {
  it('are svc_live_ + 64 hex, prefixed by their first 12 characters', () => {
    const key = generateApiKey();
    expect(key).toMatch(API_KEY_FORMAT);
    expect(apiKeyPrefix(key)).toBe(key.slice(0, 12));
    expect(generateApiKey()).not.toBe(key);
  });

  it('hash with the pepper: another pepper gives another digest', () => {
    const key = generateApiKey();
    const digest = hashApiKey('pepper-one', key);
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(digestsEqual(digest, hashApiKey('pepper-one', key))).toBe(true);
    expect(digestsEqual(digest, hashApiKey('pepper-two', key))).toBe(false);
    expect(digestsEqual(digest, '')).toBe(false);
  });
});
