import { describe, expect, it } from '@jest/globals';
import { signInCodeMail } from '../src/mail/mail-templates.ts';

describe('sign-in code mail', () => {
  const mail = (firmName: string) => signInCodeMail({ to: 'client@example.com', firmName, code: '123456', minutes: 10 });

  it("names a firm whose name ends in s with the apostrophe alone", () => {
    const sent = mail('Hudson & Pine CPAs');
    expect(sent.text).toContain("sign in to Hudson & Pine CPAs' portal");
    expect(sent.text).not.toContain("CPAs's");
    expect(sent.html).toContain('sign in to Hudson &amp; Pine CPAs&#39; portal');
  });

  it("gives any other firm's name an apostrophe and s", () => {
    expect(mail('Acme LLP').text).toContain("sign in to Acme LLP's portal");
  });
});
