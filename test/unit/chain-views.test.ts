import { parseEther } from 'viem';
import {
  curveState,
  isoDuration,
  type TokenDetailRow as ChainStateRow,
} from '../../api/routes/tokens/detail';
import { units } from '../../api/wire';

/** How chain rows read on the wire (docs/chain.md "Reads"). */

const HEAD = '2026-11-24T12:00:00.000Z';

function curveRow(overrides: Partial<ChainStateRow>): ChainStateRow {
  return {
    tokenId: '00000000-0000-0000-0000-000000000001',
    template: 'virtuals',
    state: 'live',
    blockNumber: '100',
    token: {} as ChainStateRow['token'],
    instance: '0x' + 'a'.repeat(40),
    factory: '0x' + 'f'.repeat(40),
    protocol: null,
    tree: null,
    gwt: null,
    launchParams: null,
    holdersCount: 2,
    supply: parseEther('1000000000').toString(),
    virtualPayment: parseEther('1000').toString(),
    graduationThreshold: parseEther('1000').toString(),
    reserveToken: parseEther('900000000').toString(),
    lockedPayment: parseEther('100').toString(),
    lastTradePrice: '1',
    graduated: false,
    lockedDayAgo: null,
    headTime: HEAD,
    launchTime: '2026-11-20T12:00:00.000Z',
    poolUsdt: null,
    totalSupply: null,
    currentPrice: null,
    lifetimeFeesUsdt: null,
    lifetimeGwtMinted: null,
    treePositions: null,
    activePositions: null,
    ...overrides,
  };
}

describe('chain views', () => {
  it('write base units as whole-unit decimal strings, every decimal kept', () => {
    expect(units('1500000000000000000')).toBe('1.5');
    expect(units('1')).toBe('0.000000000000000001');
    expect(units(null)).toBeNull();
  });

  it('write durations in ISO 8601', () => {
    expect(isoDuration(0)).toBe('PT0S');
    expect(isoDuration(93_784)).toBe('P1DT2H3M4S');
    expect(isoDuration(86_400)).toBe('P1D');
    expect(isoDuration(59.2)).toBe('PT1M');
  });

  it('estimate graduation at the last 24 hours’ net rate of locked payment', () => {
    // 100 locked now, 40 a day ago: 60 a day, 900 to go → 15 days.
    const curve = curveState(curveRow({ lockedDayAgo: parseEther('40').toString() }));
    expect(curve?.estimatedTimeToGraduation).toBe('P15D');
    expect(curve?.progressToGraduation).toBe(0.1);
    expect(curve?.reservePayment).toBe('1100');
  });

  it('take the rate since the launch when the curve is younger than a day', () => {
    // Launched 6 hours ago, 100 locked since: 400 a day, 900 to go → 2 days 6 hours.
    const curve = curveState(curveRow({ launchTime: '2026-11-24T06:00:00.000Z' }));
    expect(curve?.estimatedTimeToGraduation).toBe('P2DT6H');
  });

  it('count the rate over at least an hour, and give an estimate whenever there is net buying', () => {
    // Launched in the head's own second with 108 of 1,000 locked (the defect: null, or seconds).
    const sameSecond = curveRow({ launchTime: HEAD, lockedPayment: parseEther('108').toString() });
    // 108 an hour, 892 to go → 8.26 hours.
    expect(curveState(sameSecond)?.estimatedTimeToGraduation).toBe('PT8H15M33S');
    // Three seconds old: still counted over an hour, not three seconds.
    const young = curveRow({
      launchTime: new Date(Date.parse(HEAD) - 3_000).toISOString(),
      lockedPayment: parseEther('108').toString(),
    });
    expect(curveState(young)?.estimatedTimeToGraduation).toBe('PT8H15M33S');
    // Two hours old: the rate since the launch, 108 in 2 hours, 892 to go → 16.5 hours.
    const older = curveRow({
      launchTime: new Date(Date.parse(HEAD) - 7_200_000).toISOString(),
      lockedPayment: parseEther('108').toString(),
    });
    expect(curveState(older)?.estimatedTimeToGraduation).toBe('PT16H31M6S');
  });

  it('have no estimate without net buying, or once graduated', () => {
    const flat = curveRow({ lockedDayAgo: parseEther('100').toString() });
    expect(curveState(flat)?.estimatedTimeToGraduation).toBeNull();
    const selling = curveRow({ lockedDayAgo: parseEther('150').toString() });
    expect(curveState(selling)?.estimatedTimeToGraduation).toBeNull();
    const graduated = curveRow({ graduated: true, lockedPayment: parseEther('1000').toString() });
    expect(curveState(graduated)?.estimatedTimeToGraduation).toBeNull();
    expect(curveState(graduated)?.progressToGraduation).toBe(1);
  });

  it('are null before the launch is indexed', () => {
    expect(curveState(curveRow({ instance: null }))).toBeNull();
  });
});
