import { uploadFile, uploadTextFile } from '../fixture.ts';
import type { Scenario } from '../lib/scenario.ts';
import { userOf } from './users.ts';

const LARGE_UPLOAD_BYTES = 50 * 1024 * 1024;
let largeContent: Blob | null = null;

/** Staff upload a small document; the file is removed at teardown. */
export const smallUploadScenario: Scenario = {
  name: 'upload (small)',
  weight: 3,
  groups: { 'upload small': { p95Ms: 1500 } },
  async run(ctx) {
    const user = await userOf(ctx, 'Admin', 'DTA');
    const id = await uploadTextFile(ctx.http, ctx.fixture, user.token, `lt-upload-${ctx.vu}-${ctx.iteration}.txt`, ctx.iteration, 'upload small');
    if (id !== undefined) ctx.fixture.created.files.push(id);
    ctx.check('small upload stored', id !== undefined);
  },
};

/** Now and then someone uploads a 50 MB scan: it must stream through without stalling the rest. */
export const largeUploadScenario: Scenario = {
  name: 'upload (50 MB)',
  weight: 1,
  groups: { 'upload 50 MB': { p95Ms: 30_000 } },
  async run(ctx) {
    const user = await userOf(ctx, 'Admin', 'DTA');
    largeContent ??= new Blob([Buffer.alloc(LARGE_UPLOAD_BYTES, 'load test scan ')], { type: 'application/octet-stream' });
    const id = await uploadFile(ctx.http, ctx.fixture, user.token, largeContent, `lt-scan-${ctx.vu}-${ctx.iteration}.bin`, ctx.iteration, 'upload 50 MB');
    if (id !== undefined) ctx.fixture.created.files.push(id);
    ctx.check('50 MB upload stored', id !== undefined);
  },
};
