import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { apiClient } from '@ledgerline/server/portal-harness.ts';
import type { Client } from '@ledgerline/contracts/directory.contracts.ts';
import type { User } from '@ledgerline/contracts/identity.contracts.ts';
import { addFirmUser, openAs, type PortalBrowser, sideways, startPortalBrowser, uniqueSuffix } from '../../ui/test/portal-browser.ts';

/*
 * Import clients (issue 40): an Admin imports a CSV of 50 clients with contacts; the preview
 * shows the two bad rows' problems before anything is written, and the import skips them.
 * On a 390 px phone and a 1440 px desktop, each in a firm of its own.
 */
const suffix = uniqueSuffix();
const BAD_ROWS = new Set([7, 31]);

function clientsCsv(firm: string): string {
  const header = 'Name,Entity type,Address,Phone,Email,Federal ID,State ID,State,EIN,Contact 1 first name,Contact 1 last name,Contact 1 e-mail,Contact 2 first name,Contact 2 last name,Contact 2 e-mail';
  const rows = Array.from({ length: 50 }, (_, i) => {
    const n = i + 1;
    // Row numbers as a spreadsheet shows them: the header is row 1, client n is row n + 1.
    const bad = BAD_ROWS.has(n + 1);
    const ein = `${String(10 + n).padStart(2, '0')}-${String(4_000_000 + n)}`;
    return [`Imported Client ${n}`, n % 2 ? 'C corporation' : 'individual', `${n} Main Street Springfield`, bad && n + 1 === 7 ? '555 0147' : '(555)-123-4567',
      `office${n}@example.com`, '12-3456789', 'IL-445', 'NY', bad && n + 1 === 31 ? '12-34' : ein,
      'Pat', `Client${n}`, `pat${n}.${firm}@example.com`, 'Sam', `Client${n}`, `sam${n}.${firm}@example.com`].join(',');
  });
  return [header, ...rows].join('\r\n');
}

describe('an Admin importing clients', () => {
  let portal: PortalBrowser;

  beforeAll(async () => {
    portal = await startPortalBrowser(['shell', 'directory']);
  }, 300_000);

  afterAll(async () => {
    await portal?.close();
  });

  for (const width of [390, 1440]) {
    it(`previews two bad rows and imports the other 48 with their contacts at ${width} px`, async () => {
      const firm = `imp${width}${suffix}`;
      const call = apiClient(portal.baseUrl);
      expect((await call('POST', '/api/companies', portal.adminToken, { name: `Import ${width} ${suffix}`, shortName: firm })).status).toBe(201);
      const { login } = await addFirmUser(portal, firm, { username: `admin${width}_${suffix}`, fullName: 'Ada Admin', roleId: 1, clientIds: null });
      const page = await openAs(portal, portal.baseUrl, login, `/${firm}/clients`);
      await page.setViewportSize({ width, height: width < 500 ? 844 : 900 });
      await page.getByRole('button', { name: 'Import' }).click();
      await page.getByRole('heading', { name: 'Import clients' }).waitFor();
      await page.getByLabel('Client file').setInputFiles({ name: 'clients.csv', mimeType: 'text/csv', buffer: Buffer.from(clientsCsv(firm)) });

      const preview = page.getByText(/^50 rows: .* will be created/);
      await preview.waitFor({ timeout: 60_000 });
      expect(await preview.textContent()).toBe('50 rows: 48 new clients will be created, 0 will be updated, 96 contacts will be made Client users; 2 rows have problems and are skipped.');
      const problems = page.getByRole('table').filter({ hasText: 'Problem' });
      await problems.getByRole('cell', { name: 'Phone must be in format: (XXX)-XXX-XXXX' }).waitFor();
      await problems.getByRole('cell', { name: /^EIN must be 9 digits/ }).waitFor();
      // Nothing is written by the preview.
      expect((await call<Client[]>('GET', `/api/${firm}/clients`, portal.adminToken)).body).toEqual([]);
      if (width < 500) expect(await sideways(page)).toBeLessThanOrEqual(0);
      await portal.screenshot(page, `client-import-preview-${width}`);

      await page.getByRole('button', { name: 'Import 48 clients' }).click();
      await page.getByText('50 rows: 48 new clients were created, 0 were updated, 96 contacts were made Client users; 2 rows have problems and are skipped.').waitFor({ timeout: 120_000 });
      const clients = (await call<Client[]>('GET', `/api/${firm}/clients`, portal.adminToken)).body;
      expect(clients).toHaveLength(48);
      expect(clients.map((c) => c.name)).not.toContain('Imported Client 6');
      expect(clients.map((c) => c.name)).not.toContain('Imported Client 30');
      const contacts = (await call<User[]>('GET', `/api/${firm}/users`, portal.adminToken)).body.filter((u) => u.role === 'Client');
      expect(contacts).toHaveLength(96);
      await page.close();
    }, 240_000);
  }

  it('a DTA, who may import but not manage clients, finds the import on the Clients page', async () => {
    const firm = `impdta${suffix}`;
    const call = apiClient(portal.baseUrl);
    expect((await call('POST', '/api/companies', portal.adminToken, { name: `Import DTA ${suffix}`, shortName: firm })).status).toBe(201);
    const { login } = await addFirmUser(portal, firm, { username: `dta_${suffix}`, fullName: 'Dana DTA', roleId: 2, clientIds: null });
    const page = await openAs(portal, portal.baseUrl, login, `/${firm}/clients`);
    await page.getByText('Access denied. Only Admin users can manage clients.').waitFor();
    await page.getByRole('button', { name: 'Import clients' }).click();
    await page.getByRole('heading', { name: 'Import clients' }).waitFor();
    await page.getByLabel('Client file').waitFor();
    await page.close();
  });
});
