import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import type { Database } from '../src/db/database.ts';
import { migratePlatform, migrateTenant } from '../src/db/migrations.ts';
import { databaseTargets, type TestDatabase } from '../src/db/test-databases.ts';
import { createLogger } from '../src/logger.ts';
import { MAIL_JOB, mailJob, queueMail } from '../src/mail/mail-job.ts';
import { signInCodeMail } from '../src/mail/mail-templates.ts';
import { createMailer, senderOf } from '../src/mail/mailer.ts';
import { createJobQueue } from '../src/scheduler/job-queue.ts';
import { startScheduler } from '../src/scheduler/scheduler.ts';
import { mailpit } from '../src/testing/mailpit.ts';

const FROM = 'Ledgerline <no-reply@ledgerline.invalid>';
const silent = createLogger('mail-test', 'silent');
const address = (who: string) => `${who}-${randomBytes(4).toString('hex')}@example.test`;

/** A logger whose lines the test can read. */
function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({ write(chunk, _enc, done) { lines.push(JSON.parse(String(chunk))); done(); } });
  return { logger: pino({ level: 'info' }, sink), lines };
}

describe('sender', () => {
  it('a firm\'s mail goes out as "<firm> via <product>" from the configured address', () => {
    expect(senderOf(FROM, 'Acme Tax')).toEqual({ name: 'Acme Tax via Ledgerline', address: 'no-reply@ledgerline.invalid' });
    expect(senderOf(FROM, undefined)).toEqual({ name: 'Ledgerline', address: 'no-reply@ledgerline.invalid' });
    expect(senderOf('bare@x.test', 'Acme Tax')).toEqual({ name: 'Acme Tax', address: 'bare@x.test' });
  });

  it('templates carry the firm\'s name and escape it in HTML', () => {
    const mail = signInCodeMail({ to: 'a@x.test', firmName: 'Smith & <Co>', code: '123456', minutes: 10, link: 'http://portal.test/s?t=1' });
    expect(mail.subject).toBe('123456 is your Smith & <Co> sign-in code');
    expect(mail.text).toContain('Your sign-in code is 123456.');
    expect(mail.text).toContain('Sign in: http://portal.test/s?t=1');
    expect(mail.html).toContain('Smith &amp; &lt;Co&gt;');
    expect(mail.html).not.toContain('<Co>');
    expect(mail.firmName).toBe('Smith & <Co>');
  });
});

describe('mailer without SMTP_URL (embedded default)', () => {
  it('says so at start and writes each mail to the log instead of sending it', async () => {
    const { logger, lines } = capturingLogger();
    const mailer = createMailer({ mailFrom: FROM }, logger);
    expect(mailer.delivers).toBe(false);
    expect(lines[0]?.msg).toBe('SMTP_URL is not set: e-mails are written to this log instead of being sent');
    await mailer.send({ to: 'a@x.test', subject: 'Hello', text: 'code 123456', firmName: 'Acme Tax' });
    expect(lines[1]?.mail).toEqual({ from: 'Acme Tax via Ledgerline <no-reply@ledgerline.invalid>', to: 'a@x.test', subject: 'Hello', text: 'code 123456' });
  });
});

// Outside CI without MAILPIT_URL only the log side runs (in CI a missing URL fails: real-servers.ts).
const server = mailpit();
if (server) describe('mailer against a real SMTP server (Mailpit)', () => {

  it('delivers text and HTML with the firm\'s sender name', async () => {
    const mailer = createMailer({ smtpUrl: server.smtpUrl, mailFrom: FROM }, silent);
    expect(mailer.delivers).toBe(true);
    const to = address('direct');
    await mailer.send(signInCodeMail({ to, firmName: 'Acme Tax', code: '654321', minutes: 10 }));
    mailer.close();
    const got = await server.waitForMail(to);
    expect(got.From).toEqual({ Name: 'Acme Tax via Ledgerline', Address: 'no-reply@ledgerline.invalid' });
    expect(got.To.map((t) => t.Address)).toEqual([to]);
    expect(got.Subject).toBe('654321 is your Acme Tax sign-in code');
    expect(got.Text).toContain('Your sign-in code is 654321.');
    expect(got.HTML).toContain('<h2');
  });

  describe.each(databaseTargets())('send job on the durable scheduler ($name)', (target) => {
    const queue = createJobQueue('mailtest');
    let scratch: TestDatabase;
    let db: Database;
    const firm = { shortName: 'm', schema: `s_m_${randomBytes(3).toString('hex')}` };
    const tenants = async () => [firm];
    const pending = async () => (await db.forSchema(firm.schema).query<{ attempts: number }>(`SELECT attempts FROM ${queue.table}`)).rows;

    beforeAll(async () => {
      scratch = await target.open();
      db = scratch.db;
      await migratePlatform(db, [queue.dueIndexMigrations]);
      await migrateTenant(db, firm.schema, [queue.migrations]);
    });
    afterAll(async () => { await scratch.drop(); });

    it('sends a committed mail once across two replicas, and never one whose transaction rolled back', async () => {
      const sent = address('queued');
      const dropped = address('dropped');
      await db.forSchema(firm.schema).transaction((tx) => queueMail(queue, tx, { to: sent, subject: 'Once', text: 'only once' }));
      await db.forSchema(firm.schema).transaction(async (tx) => {
        await queueMail(queue, tx, { to: dropped, subject: 'Never', text: 'rolled back' });
        throw new Error('abort');
      }).catch(() => undefined);
      const mailers = [createMailer({ smtpUrl: server.smtpUrl, mailFrom: FROM }, silent), createMailer({ smtpUrl: server.smtpUrl, mailFrom: FROM }, silent)];
      const replicas = mailers.map((m) => startScheduler({ db, queue, tenants, handlers: { [MAIL_JOB]: mailJob(m) }, logger: silent, pollMs: 60_000 }, false));
      const ran = await Promise.all(replicas.map((r) => r.tick()));
      expect(ran.reduce((a, b) => a + b, 0)).toBe(1);
      await server.waitForMail(sent);
      // Give a duplicate every chance to arrive before counting.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await server.messagesTo(sent)).toHaveLength(1);
      expect(await server.messagesTo(dropped)).toHaveLength(0);
      expect(await pending()).toEqual([]);
      for (const r of replicas) await r.stop();
      for (const m of mailers) m.close();
    });

    it('keeps a mail the SMTP server refused and sends it on a later run', async () => {
      const to = address('retried');
      await db.forSchema(firm.schema).transaction((tx) => queueMail(queue, tx, { to, subject: 'Retry', text: 'after a failure' }));
      const down = createMailer({ smtpUrl: 'smtp://127.0.0.1:1', mailFrom: FROM }, silent);
      const failing = startScheduler({ db, queue, tenants, handlers: { [MAIL_JOB]: mailJob(down) }, logger: silent, pollMs: 60_000, retryBaseMs: 0 }, false);
      await failing.tick();
      expect(await pending()).toEqual([{ attempts: 1 }]);
      await failing.stop();
      down.close();
      const up = createMailer({ smtpUrl: server.smtpUrl, mailFrom: FROM }, silent);
      const working = startScheduler({ db, queue, tenants, handlers: { [MAIL_JOB]: mailJob(up) }, logger: silent, pollMs: 60_000 }, false);
      expect(await working.tick()).toBe(1);
      expect((await server.waitForMail(to)).Subject).toBe('Retry');
      expect(await pending()).toEqual([]);
      await working.stop();
      up.close();
    });
  });
});
