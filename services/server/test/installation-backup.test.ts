import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBackupCommand } from '../src/backup/backup-cli.ts';
import { adminLogin, apiClient, portalTestEnv, testClient } from '../src/portal-harness.ts';
import { startPortal, type RunningPortal } from '../src/portal.ts';

/*
 * Backup of a running embedded installation (docs/running/backup-restore.md):
 * uploads and task edits go on while `backup` runs; the backup restored into an empty
 * folder starts and answers as the original did at one instant within the backup:
 * everything finished before it began is there, nothing begun after it ended is, every
 * file listed has all its bytes, and the task is at one of the versions written.
 */
const FIRM = 'bkp';
// The embedded default only: on the real servers, backups are the servers' own tools.
const env = (() => {
  const e = portalTestEnv({ GATEWAY_RATE_LIMIT_PER_MINUTE: '1000000' });
  delete e.POSTGRES_URL;
  delete e.AMQP_URL;
  delete e.S3_ENDPOINT;
  return e;
})();
let original: RunningPortal | null = null;
let restored: RunningPortal | null = null;

interface Upload { content: string; started: number; finished: number | null }
interface Edit { version: number; started: number; finished: number | null }

/** The load's pace: a busy office, not a flood (in this one process it shares the event loop with the backup). */
const pause = () => new Promise((r) => setTimeout(r, 50));

const login = async (portal: RunningPortal) => ((await (await adminLogin(portal.gatewayUrl!)).json()) as { token: string }).token;

async function upload(portal: RunningPortal, token: string, clientId: number, content: string): Promise<void> {
  const form = new FormData();
  form.append('fileType', 'company_document');
  form.append('clientId', String(clientId));
  form.append('file', new Blob([content]), `${content.slice(0, 12)}.txt`);
  const r = await fetch(`${portal.gatewayUrl}/api/${FIRM}/files`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  if (r.status !== 201) throw new Error(`upload ${r.status}`);
}

afterAll(async () => {
  await original?.stop();
  await restored?.stop();
});

describe('installation backup', () => {
  const uploads: Upload[] = [];
  const edits: Edit[] = [];
  let backupStarted = 0;
  let backupFinished = 0;
  let taskId: number;
  const archive = join(mkdtempSync(join(tmpdir(), 'backup-test-')), 'installation.tar');

  beforeAll(async () => {
    original = await startPortal({ env });
    const token = await login(original);
    const call = apiClient(original.gatewayUrl!);
    expect((await call('POST', '/api/companies', token, { name: 'Backup Firm', shortName: FIRM })).status).toBe(201);
    const client = await call<{ id: number }>('POST', `/api/${FIRM}/clients`, token, testClient('Backup Client'));
    const task = await call<{ id: number }>('POST', `/api/${FIRM}/tasks`, token, { title: 'Task v0', clientIds: [client.body.id] });
    taskId = task.body.id;
    for (let i = 0; i < 5; i++) {
      const u: Upload = { content: `before backup ${i} ${'x'.repeat(20_000)}`, started: Date.now(), finished: null };
      await upload(original, token, client.body.id, u.content);
      u.finished = Date.now();
      uploads.push(u);
    }
    let running = true;
    const uploading = (async () => {
      for (let i = 0; running; i++) {
        const u: Upload = { content: `during load ${i} ${'y'.repeat(50_000 + i)}`, started: Date.now(), finished: null };
        uploads.push(u);
        await upload(original!, token, client.body.id, u.content);
        u.finished = Date.now();
        await pause();
      }
    })();
    const editing = (async () => {
      for (let v = 1; running; v++) {
        const e: Edit = { version: v, started: Date.now(), finished: null };
        edits.push(e);
        const r = await call('PATCH', `/api/${FIRM}/tasks/${taskId}`, token, { title: `Task v${v}` });
        if (r.status !== 200) throw new Error(`edit ${r.status}`);
        e.finished = Date.now();
        await pause();
      }
    })();
    await new Promise((r) => setTimeout(r, 1500));
    backupStarted = Date.now();
    expect(await runBackupCommand(['backup', '--out', archive], env)).toBe(0);
    backupFinished = Date.now();
    await new Promise((r) => setTimeout(r, 1000));
    running = false;
    await Promise.all([uploading, editing]);
    await original.stop();
    original = null;
  }, 180_000);

  it('restores into an empty folder only', async () => {
    expect(existsSync(archive)).toBe(true);
    expect(await runBackupCommand(['restore', archive], env).catch((e: Error) => e.message)).toMatch(/is not empty; restore into an empty folder/);
  });

  it('gives back the installation as it was at one instant of the backup', async () => {
    const restoredEnv = { ...env, PORTAL_DATA_DIR: mkdtempSync(join(tmpdir(), 'portal-restored-')) };
    expect(await runBackupCommand(['restore', archive], restoredEnv)).toBe(0);
    restored = await startPortal({ env: restoredEnv });
    const token = await login(restored);
    const call = apiClient(restored.gatewayUrl!);
    const files = await call<{ id: number; originalName: string }[]>('GET', `/api/${FIRM}/files?limit=1000`, token);
    expect(files.status).toBe(200);
    const contents = new Set<string>();
    for (const f of files.body) {
      const r = await fetch(`${restored.gatewayUrl}/api/${FIRM}/files/${f.id}`, { headers: { authorization: `Bearer ${token}` } });
      expect(r.status).toBe(200);
      contents.add(await r.text());
    }
    const uploaded = new Set(uploads.map((u) => u.content));
    // Every file listed has all its bytes, exactly as uploaded.
    for (const c of contents) expect(uploaded.has(c)).toBe(true);
    for (const u of uploads) {
      if (u.finished !== null && u.finished < backupStarted) expect(contents.has(u.content)).toBe(true);
      if (u.started > backupFinished) expect(contents.has(u.content)).toBe(false);
    }
    expect(uploads.filter((u) => u.finished !== null && u.finished > backupFinished).length).toBeGreaterThan(0);
    const tasks = await call<{ id: number; title: string }[]>('GET', `/api/${FIRM}/tasks`, token);
    const task = tasks.body.find((t) => t.id === taskId)!;
    const version = Number(/^Task v(\d+)$/.exec(task.title)![1]);
    const lastBefore = Math.max(0, ...edits.filter((e) => e.finished !== null && e.finished < backupStarted).map((e) => e.version));
    const firstAfter = Math.min(...edits.filter((e) => e.started > backupFinished).map((e) => e.version));
    expect(version).toBeGreaterThanOrEqual(lastBefore);
    expect(version).toBeLessThan(firstAfter);
  }, 120_000);
});
