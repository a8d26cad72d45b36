import { isoDateTime } from '../../../../../src/gateway/startup/scalars/iso-date-time';
import { Random } from '../../../../support/random-operations';

/** The range of a JavaScript Date: ±100,000,000 days around the epoch. */
const MAX_TIME = 8.64e15;
/** Fixed, so every run checks the same dates; ISO_DATE_SEED tries others. */
const SEED = Number(process.env.ISO_DATE_SEED ?? 20_261_130);
/** 0000-01-01 and 10000-01-01, the fast path's range. */
const YEAR_0 = new Date('0000-01-01T00:00:00.000Z').getTime();
const YEAR_10000 = Date.UTC(10000, 0, 1);

describe('isoDateTime', () => {
  it('answers exactly as toISOString at the calendar’s edges', () => {
    const edges = [
      '1970-01-01T00:00:00.000Z',
      '1969-12-31T23:59:59.999Z',
      '0000-01-01T00:00:00.000Z',
      '0000-02-29T12:00:00.000Z',
      '0000-03-01T00:00:00.000Z',
      '0001-01-01T00:00:00.000Z',
      '1600-02-29T23:59:59.999Z',
      '1900-02-28T23:59:59.999Z',
      '1900-03-01T00:00:00.000Z',
      '2000-02-29T00:00:00.001Z',
      '2100-03-01T00:00:00.010Z',
      '9999-12-31T23:59:59.999Z',
    ];
    for (const edge of edges) expect(isoDateTime(new Date(edge))).toBe(edge);
    for (const time of [Date.UTC(-1, 11, 31, 23, 59, 59, 999), Date.UTC(10000, 0, 1), -MAX_TIME, MAX_TIME]) {
      expect(isoDateTime(new Date(time))).toBe(new Date(time).toISOString());
    }
    expect(isoDateTime(new Date(Date.UTC(10000, 0, 1)))).toBe('+010000-01-01T00:00:00.000Z');
  });

  it(`answers exactly as toISOString for 20,000 random dates (seed ${SEED})`, () => {
    const random = new Random(SEED);
    const mismatches: string[] = [];
    for (let index = 0; index < 20_000; index++) {
      // Half over every Date there is, half over years 0–9999, where the fast path answers.
      const time = index % 2 === 0 ? Math.round((random.next() * 2 - 1) * MAX_TIME) : Math.floor(YEAR_0 + random.next() * (YEAR_10000 - YEAR_0));
      const date = new Date(time);
      if (isoDateTime(date) !== date.toISOString()) mismatches.push(`${String(time)}: ${isoDateTime(date)}, toISOString ${date.toISOString()}`);
    }
    expect(mismatches).toEqual([]);
  });
});
