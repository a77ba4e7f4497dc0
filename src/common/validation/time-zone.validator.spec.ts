import { isTimeZoneName } from './time-zone.validator';

describe('isTimeZoneName', () => {
  it('accepts IANA names, again from memory', () => {
    for (const name of ['Africa/Lagos', 'America/New_York', 'Asia/Kolkata', 'UTC', 'Etc/GMT+1', 'Africa/Lagos']) expect(isTimeZoneName(name)).toBe(true);
  });

  it('refuses offsets, unknown names and what is not text', () => {
    for (const value of ['+01:00', '-05:00', 'Mars/Olympus', '', 'Africa/Lagos\0', ' UTC', 1, null]) expect(isTimeZoneName(value)).toBe(false);
  });
});
