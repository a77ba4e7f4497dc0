import { validateSync } from 'class-validator';
import { IsNotFutureDate, isNotFutureDate } from './calendar-date.validator';

class Dated {
  @IsNotFutureDate()
  date: unknown;
}

describe('IsNotFutureDate', () => {
  const now = new Date('2026-03-10T12:00:00Z');

  it('accepts past dates and today in the time zone furthest ahead, refuses later ones', () => {
    expect(isNotFutureDate('1900-01-01', now)).toBe(true);
    expect(isNotFutureDate('2026-03-10', now)).toBe(true);
    // 12:00 UTC is 02:00 on the 11th at UTC+14.
    expect(isNotFutureDate('2026-03-11', now)).toBe(true);
    expect(isNotFutureDate('2026-03-12', now)).toBe(false);
    expect(isNotFutureDate('2999-01-01', now)).toBe(false);
    expect(isNotFutureDate('2026-03-11', new Date('2026-03-10T09:59:59Z'))).toBe(false);
  });

  it('leaves anything that is not YYYY-MM-DD to the format validators', () => {
    expect(isNotFutureDate('01/04/2999', now)).toBe(true);
    expect(validateSync(Object.assign(new Dated(), { date: 20990101 }))).toEqual([]);
  });

  it('names the property in its message', () => {
    const [error] = validateSync(Object.assign(new Dated(), { date: '2999-01-01' }));
    expect(error.constraints).toEqual({ isNotFutureDate: 'date must not be in the future' });
  });
});
