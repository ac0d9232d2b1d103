import { describe, expect, it } from '@jest/globals';
import { firmDateTime, writeReadableCsv } from '../src/portability/readable-csv.ts';

describe('the readable copy\'s CSV tables', () => {
  it('show instants as the firm\'s day and time, and nothing for none', () => {
    expect(firmDateTime(new Date('2026-11-29T20:05:00Z'), 'Asia/Kolkata')).toBe('2026-11-30 01:35');
    expect(firmDateTime('2026-07-01T03:59:00Z', 'America/New_York')).toBe('2026-06-30 23:59');
    expect(firmDateTime(null, 'UTC')).toBe('');
  });

  it('write a header and a row per record, each cell escaped, as one entry of exactly its size', async () => {
    const written: { name: string; size: number; body: string }[] = [];
    await writeReadableCsv({ write: async (name, size, body) => { written.push({ name, size, body: body.toString() }); } }, 'clients.csv',
      [['id', (c: { id: number; name: string }) => c.id], ['name', (c) => c.name]], [{ id: 1, name: 'Smith, Jones & "Co"' }, { id: 2, name: 'Ågren' }]);
    expect(written).toEqual([{ name: 'clients.csv', size: Buffer.byteLength(written[0]!.body), body: 'id,name\r\n1,"Smith, Jones & ""Co"""\r\n2,Ågren\r\n' }]);
  });
});
