import { possessive } from '@ledgerline/contracts/possessive.ts';
import type { Mail } from './mailer.ts';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * The one layout of every mail: the firm's name as heading, paragraphs, an optional
 * button-like link, and a footer saying why the mail came. Text and HTML say the same.
 */
export function firmMail(input: { to: string; firmName: string; subject: string; paragraphs: string[]; link?: { label: string; url: string }; footer: string }): Mail {
  const { firmName, paragraphs, link, footer } = input;
  const text = [
    firmName,
    '',
    ...paragraphs.flatMap((p) => [p, '']),
    ...(link ? [`${link.label}: ${link.url}`, ''] : []),
    '--',
    footer,
  ].join('\n');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1f2937;max-width:560px">
<h2 style="margin:0 0 16px">${escapeHtml(firmName)}</h2>
${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
${link ? `<p><a href="${escapeHtml(link.url)}" style="display:inline-block;padding:10px 16px;background:#2563eb;color:#fff;text-decoration:none;border-radius:6px">${escapeHtml(link.label)}</a></p>` : ''}
<hr style="border:none;border-top:1px solid #e5e7eb"><p style="color:#6b7280;font-size:12px">${escapeHtml(footer)}</p>
</body></html>`;
  return { to: input.to, subject: input.subject, text, html, firmName };
}

/** A one-time sign-in code (and, for e-mail sign-in, a one-click link). */
export function signInCodeMail(input: { to: string; firmName: string; code: string; minutes: number; link?: string }): Mail {
  return firmMail({
    to: input.to,
    firmName: input.firmName,
    subject: `${input.code} is your ${input.firmName} sign-in code`,
    paragraphs: [
      `Your sign-in code is ${input.code}.`,
      `It works once, within ${input.minutes} minutes. If you did not try to sign in, ignore this e-mail: nobody can sign in without the code.`,
    ],
    ...(input.link ? { link: { label: 'Sign in', url: input.link } } : {}),
    footer: `You receive this because someone asked to sign in to ${possessive(input.firmName)} portal with this address.`,
  });
}

/** An invitation to a firm's portal (issue 40): a link to set a password, valid for `days` days, once. */
export function invitationMail(input: { to: string; firmName: string; fullName: string; username: string; link: string; days: number; emailCodeSignIn: boolean }): Mail {
  return firmMail({
    to: input.to,
    firmName: input.firmName,
    subject: `${input.firmName} invites you to its portal`,
    paragraphs: [
      `Hello ${input.fullName},`,
      `${input.firmName} has made you an account on its portal. Your username is ${input.username}.`,
      input.emailCodeSignIn
        ? 'Open the link to choose a password, or to sign in with a code e-mailed to this address instead.'
        : 'Open the link to choose your password.',
      `The link works once, within ${input.days} days. If you did not expect this, ignore this e-mail.`,
    ],
    link: { label: 'Set up your account', url: input.link },
    footer: `You receive this because ${input.firmName} invited this address to its portal.`,
  });
}
