import { describe, expect, it } from '@jest/globals';
import { normalisePhone, readablePhone } from '../src/phone-format.ts';

describe('normalisePhone', () => {
  it("writes a number typed with spaces, dots or a country code in the firm's format", () => {
    expect(normalisePhone('555 123 4567', 'US')).toBe('(555)-123-4567');
    expect(normalisePhone('+1 555.123.4567', 'US')).toBe('(555)-123-4567');
    expect(normalisePhone('416 555 0199', 'CA')).toBe('(416)-555-0199');
    expect(normalisePhone('98765 43210', 'IN')).toBe('+919876543210');
    expect(normalisePhone('+91 98765-43210', 'IN')).toBe('+919876543210');
    expect(normalisePhone('020 7946 0958', 'UK')).toBe('+442079460958');
    expect(normalisePhone('0412 345 678', 'AU')).toBe('+61412345678');
  });

  it('leaves what cannot be one number of that country as typed', () => {
    expect(normalisePhone('12345', 'US')).toBe('12345');
    expect(normalisePhone('call me', 'IN')).toBe('call me');
    expect(normalisePhone('', 'UK')).toBe('');
  });
});

describe('readablePhone', () => {
  it('groups a stored number as people of its country write it', () => {
    expect(readablePhone('(212)-555-0147')).toBe('(212) 555-0147');
    expect(readablePhone('+919876543210')).toBe('+91 98765 43210');
    expect(readablePhone('+447700900123')).toBe('+44 7700 900123');
    expect(readablePhone('+442079460958')).toBe('+44 20 7946 0958');
    expect(readablePhone('+61412345678')).toBe('+61 412 345 678');
    expect(readablePhone('+61298765432')).toBe('+61 2 9876 5432');
  });

  it('leaves anything else as typed', () => {
    expect(readablePhone('555 0147 ext. 12')).toBe('555 0147 ext. 12');
    expect(readablePhone('')).toBe('');
  });
});
