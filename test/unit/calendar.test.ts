import {
  addUtcMonths,
  DAY_MS,
  startOfNextUtcDay,
  startOfNextUtcMonth,
  startOfUtcDay,
  startOfUtcMonth,
  startOfUtcWeek,
  utcDateString,
} from '../../shared/domain/calendar';

const at = (iso: string) => new Date(iso);
const iso = (date: Date) => date.toISOString();

describe('UTC calendar math (shared/domain/calendar.ts)', () => {
  it('day boundaries ignore the local time zone and keep to UTC midnight', () => {
    expect(iso(startOfUtcDay(at('2026-11-22T23:59:59.999Z')))).toBe('2026-11-22T00:00:00.000Z');
    expect(iso(startOfNextUtcDay(at('2026-11-22T23:59:59.000Z')))).toBe('2026-11-23T00:00:00.000Z');
    expect(iso(startOfNextUtcDay(at('2026-12-31T00:00:00.000Z')))).toBe('2027-01-01T00:00:00.000Z');
    expect(startOfNextUtcDay(at('2026-03-01T05:00:00Z')).getTime()).toBe(
      startOfUtcDay(at('2026-03-01T05:00:00Z')).getTime() + DAY_MS,
    );
  });

  it('weeks start on Monday, also across a month and a year end', () => {
    expect(iso(startOfUtcWeek(at('2026-11-25T12:00:00Z')))).toBe('2026-11-23T00:00:00.000Z'); // Wed
    expect(iso(startOfUtcWeek(at('2026-11-23T00:00:00Z')))).toBe('2026-11-23T00:00:00.000Z'); // Mon
    expect(iso(startOfUtcWeek(at('2026-11-29T23:59:59Z')))).toBe('2026-11-23T00:00:00.000Z'); // Sun
    expect(iso(startOfUtcWeek(at('2027-01-01T08:00:00Z')))).toBe('2026-12-28T00:00:00.000Z'); // Fri
  });

  it('months start on the 1st and the next one rolls the year', () => {
    expect(iso(startOfUtcMonth(at('2026-11-30T23:00:00Z')))).toBe('2026-11-01T00:00:00.000Z');
    expect(iso(startOfNextUtcMonth(at('2026-12-15T00:00:00Z')))).toBe('2027-01-01T00:00:00.000Z');
  });

  it('adding months keeps the instant and clamps to the last day of shorter months', () => {
    expect(iso(addUtcMonths(at('2026-01-31T10:00:00.000Z'), 1))).toBe('2026-02-28T10:00:00.000Z');
    expect(iso(addUtcMonths(at('2028-01-31T00:00:00.000Z'), 1))).toBe('2028-02-29T00:00:00.000Z');
    expect(iso(addUtcMonths(at('2026-12-15T23:59:59.999Z'), 1))).toBe('2027-01-15T23:59:59.999Z');
    expect(iso(addUtcMonths(at('2026-03-31T06:30:00.000Z'), -1))).toBe('2026-02-28T06:30:00.000Z');
    expect(iso(addUtcMonths(at('2026-01-15T00:00:00.000Z'), 13))).toBe('2027-02-15T00:00:00.000Z');
  });

  it('a UTC date string is the calendar day in UTC', () => {
    expect(utcDateString(at('2026-11-22T23:59:59.999Z'))).toBe('2026-11-22');
  });
});
