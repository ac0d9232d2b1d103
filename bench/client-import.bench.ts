// `npm run bench:client-import`: a firm switching to the portal imports BENCH_ROWS clients
// (default 5,000) from one CSV, each row with an EIN and two contacts who become Client
// users (10,000 users), and one assigned staff member. Prints the dry run's and the
// import's time and the peak memory (RSS) of the process running the services over its
// baseline. Runs on the embedded default (everything in one process, PGlite) unless
// POSTGRES_URL is exported (PostgreSQL). Target (issue 40): the import in under a minute
// on the embedded default.
import { readFileSync } from 'node:fs';
import { startBenchPortal } from './lib/bench-portal.ts';
import { jsonCaller } from './lib/bench-client.ts';
import { CLIENT_IMPORT_EVENTS, IMPORT_TEMPLATE_HEADERS, type ClientImportResult } from '@ledgerline/contracts/client-import.contracts.ts';
import { readEventStream } from '@ledgerline/ui/event-stream.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 5_000);
const TARGET_S = 60;
const database = process.env.POSTGRES_URL ? 'PostgreSQL' : 'embedded default (PGlite)';

/** A made-up EIN per row: nine digits, no check digit to compute for EINs. */
const ein = (i: number) => `${String(10 + (i % 89)).padStart(2, '0')}-${String(1_000_000 + i).padStart(7, '0')}`;
function row(i: number, firm: string): Record<string, string> {
  return {
    Name: `Import Client ${i}`, 'Entity type': i % 3 === 0 ? 'individual' : 'C corporation', Jurisdiction: 'US', State: 'NY',
    Address: `${100 + (i % 900)} Main Street, Springfield`, Phone: '(555)-123-4567', Email: `office${i}@client${i}.example`,
    'Federal ID': ein(i), 'State ID': `NY-${i}`, EIN: ein(i), 'Assigned staff': `staff@${firm}.example`,
    'Contact 1 first name': 'Pat', 'Contact 1 last name': `Client${i}`, 'Contact 1 e-mail': `pat${i}@${firm}.example`,
    'Contact 2 first name': 'Sam', 'Contact 2 last name': `Client${i}`, 'Contact 2 e-mail': `sam${i}@${firm}.example`,
  };
}

const portal = await startBenchPortal({ mode: 'all', firstPort: Number(process.env.BENCH_FIRST_PORT ?? 18_740), dataPrefix: 'bench-client-import-' });
const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${portal.servicesPid}/status`, 'utf8'))![1]) / 1024;

/** Peak RSS while `work` runs, sampled every 100 ms. */
async function measured<T>(work: () => Promise<T>): Promise<{ result: T; seconds: number; peakMb: number }> {
  let peak = rssMb();
  const sampler = setInterval(() => { peak = Math.max(peak, rssMb()); }, 100);
  const started = performance.now();
  try {
    const result = await work();
    return { result, seconds: (performance.now() - started) / 1000, peakMb: Math.max(peak, rssMb()) };
  } finally {
    clearInterval(sampler);
  }
}

try {
  const call = jsonCaller(portal.url);
  const token = (await call<{ token: string }>('POST', '/api/admin/auth/login', { username: 'bench-admin', password: 'bench-secret' })).token;
  const firm = `benchimport${Date.now().toString(36)}`;
  await call('POST', '/api/companies', { name: 'Bench Import', shortName: firm }, token);
  const roles = await call<{ id: number; name: string }[]>('GET', `/api/${firm}/roles`, undefined, token);
  await call('POST', `/api/${firm}/users`, {
    username: `staff_${firm}`, password: 'bench-secret', fullName: 'Staff Member', roleId: roles.find((r) => r.name === 'CPA')!.id, clientIds: [], reportTypeIds: [], email: `staff@${firm}.example`,
  }, token);

  const headers = [...IMPORT_TEMPLATE_HEADERS.filter((h) => h in row(0, firm))];
  const csv = [headers.join(','), ...Array.from({ length: ROWS }, (_, i) => { const r = row(i, firm); return headers.map((h) => `"${r[h] ?? ''}"`).join(','); })].join('\r\n');
  // As the screen does: progress streamed as events, so a long import keeps its connection alive.
  const upload = async (dryRun: boolean): Promise<ClientImportResult> => {
    const form = new FormData();
    form.append('dryRun', String(dryRun));
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'clients.csv');
    const r = await fetch(`${portal.url}/api/${firm}/clients/import`, { method: 'POST', headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' }, body: form });
    if (!r.ok) throw new Error(`import answered ${r.status}: ${await r.text()}`);
    let said = Date.now();
    for await (const e of readEventStream(r)) {
      if (e.event === CLIENT_IMPORT_EVENTS.result) return e.data as ClientImportResult;
      if (e.event === CLIENT_IMPORT_EVENTS.error) throw new Error(JSON.stringify(e.data));
      if (Date.now() - said > 30_000) { said = Date.now(); console.log(`    ${JSON.stringify(e.data)}`); }
    }
    throw new Error('the import ended without a result');
  };

  const baseline = rssMb();
  console.log(`client import: ${ROWS.toLocaleString('en-US')} rows, 2 contacts each, ${(csv.length / 1024 / 1024).toFixed(1)} MB of CSV, on the ${database}`);
  const dry = await measured(() => upload(true));
  console.log(`  dry run: ${dry.seconds.toFixed(1)} s, ${dry.result.errors.length} errors, peak RSS +${(dry.peakMb - baseline).toFixed(0)} MB over ${baseline.toFixed(0)} MB`);
  const run = await measured(() => upload(false));
  const r = run.result;
  console.log(`  import:  ${run.seconds.toFixed(1)} s (${(ROWS / run.seconds).toFixed(0)} rows/s), created ${r.created}, updated ${r.updated}, contacts ${r.contactsCreated}, errors ${r.errors.length}; peak RSS +${(run.peakMb - baseline).toFixed(0)} MB`);
  if (r.errors.length) console.log(`  first errors: ${JSON.stringify(r.errors.slice(0, 3))}`);
  const ok = r.created === ROWS && r.contactsCreated === 2 * ROWS && (process.env.POSTGRES_URL || ROWS < 5_000 || run.seconds < TARGET_S);
  console.log(`  ${ok ? 'PASS' : 'FAIL'}${process.env.POSTGRES_URL ? '' : ` (target: 5,000 rows under ${TARGET_S} s on the embedded default)`}`);
  process.exitCode = ok ? 0 : 1;
} finally {
  await portal.stop();
}
