import { AUTH_TOKEN_KEY, CURRENT_TENANT_KEY, TOKEN_KEY, USER_KEY } from '@ledgerline/contracts/browser-storage.ts';
import { HOME_HEADING, TENANT_SWITCHING_ROLES } from '@ledgerline/contracts/signed-in-frame.ts';
import { COLOURS, FONT, scriptHashSource } from './first-paint.ts';

/*
 * The home (/ and /{tenant}/dashboard, where every sign-in lands) with a copy of its first
 * screen in the first HTML, on a phone: the header and the Dashboard's heading, painted before
 * any script. There the app's own heading comes seconds later, after the shell, the dashboard
 * remote and their libraries; this copy shows the page at once. (A desktop has the app's own
 * within about a second, and Lighthouse's desktop figure was no better with the copy.)
 *
 * The gateway does not know who is signed in (the sign-in lives in the browser's storage), so an
 * inline script draws the copy from the stored user while the page is parsed, and draws nothing
 * for a visitor who is not signed in. It lies over the app (which renders beneath it as usual)
 * until the page's content is in: the shell removes it then (ui/first-paint.ts,
 * removeHomeFirstPaint), in the same frame. Text is set as text, never as markup. The markup and
 * the measurements mirror the app's on a phone (ui/app-header.tsx, page-heading.tsx, theme.css);
 * the home's browser test holds the header and the heading to the same boxes.
 */

const STAND_IN_ID = 'first-paint-home';
/** Where theme.css lays the app out for a phone (the navigation a drawer, the header on two rows). */
const PHONE_WIDTH = '(max-width: 767.98px)';

const FIRST_PAINT_SCRIPT = [
  '(function(){try{',
  `var s=localStorage,token=s.getItem('${TOKEN_KEY}')||s.getItem('${AUTH_TOKEN_KEY}'),user=JSON.parse(s.getItem('${USER_KEY}')||'null'),tenant=JSON.parse(s.getItem('${CURRENT_TENANT_KEY}')||'null');`,
  // A platform administrator's home depends on the firm chosen in the header (or none): no copy for them.
  "if(!token||!user||typeof user.role!=='string'||user.platformAdmin===true)return;",
  // Phones only: a desktop has the app's own first screen within a second or so.
  `if(!matchMedia('${PHONE_WIDTH}').matches)return;`,
  "var role=user.role.toLowerCase(),client=role==='client',heading=client?" + JSON.stringify(HOME_HEADING.client) + ':' + JSON.stringify(HOME_HEADING.staff) + ';',
  // The header's tenant row (a second row on a phone) is shown to the roles that may switch tenants, once one is chosen.
  `var switcher=tenant&&typeof tenant.name==='string'&&${JSON.stringify(TENANT_SWITCHING_ROLES)}.indexOf(role)>=0;`,
  'function el(tag,cls,text,parent){var e=document.createElement(tag);e.className=cls;if(text)e.textContent=text;parent.appendChild(e);return e;}',
  `var page=document.createElement('div');page.id='${STAND_IN_ID}';page.setAttribute('aria-hidden','true');`,
  "var header=el('div','fp-header','',page);",
  "el('span','fp-menu','',header);el('span','fp-title','Dashboard',header);",
  "if(switcher){var row=el('span','fp-tenant','',header);el('span','fp-tenant-label','Current Tenant',row);el('span','fp-tenant-name',tenant.name,row);}",
  // A Client user's header names their company (a line of its own on a phone): its place is kept, empty.
  "if(client)el('span','fp-client','\\u200b',header);",
  "var content=el('div','fp-content','',page);el('div','fp-heading-title',heading.title,content);el('div','fp-heading-subtitle',heading.subtitle,content);",
  'document.currentScript.parentNode.insertBefore(page,document.currentScript);',
  '}catch(e){}})();',
].join('');

/** The CSP source that allows exactly that inline script (gateway.ts adds it to script-src). */
export const HOME_FIRST_PAINT_SCRIPT_SOURCE = scriptHashSource(FIRST_PAINT_SCRIPT);

const $ = `#${STAND_IN_ID}`;
// The phone's layout of theme.css: the header wraps, its first row as tall as its round 3 rem
// buttons with the menu button first; the company's or tenant's line is a second row.
const STYLE = [
  `${$}{position:fixed;inset:0;z-index:5000;overflow:hidden;font-family:${FONT};font-size:16px;color:${COLOURS.text};background:${COLOURS.ground}}`,
  `${$} *{box-sizing:border-box}`,
  `${$} .fp-header{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem;min-height:3.5rem;padding:.5rem .75rem;background:${COLOURS.card};border-bottom:1px solid ${COLOURS.border}}`,
  `${$} .fp-menu{width:2.5rem;height:3rem}`,
  `${$} .fp-title{flex:1;min-width:0;overflow:hidden;font-size:1.125rem;font-weight:600;white-space:nowrap;text-overflow:ellipsis}`,
  `${$} .fp-tenant{order:3;display:flex;align-items:center;gap:.75rem;flex-basis:100%;height:2.75rem}`,
  `${$} .fp-tenant-label{font-size:.75rem;font-weight:600;letter-spacing:.04em;text-transform:uppercase;color:${COLOURS.secondaryText}}`,
  `${$} .fp-tenant-name{flex:1;min-width:0;overflow:hidden;padding:.5rem .75rem;font-weight:600;white-space:nowrap;text-overflow:ellipsis;border:1px solid ${COLOURS.border};border-radius:6px;background:${COLOURS.ground}}`,
  `${$} .fp-client{order:3;flex-basis:100%}`,
  `${$} .fp-content{padding:1rem .75rem}`,
  `${$} .fp-heading-title{font-size:1.5rem;font-weight:700}`,
  `${$} .fp-heading-subtitle{margin-top:.25rem;color:${COLOURS.secondaryText}}`,
].join('');

/** The shell's index.html with the home's first screen drawn, for a signed-in visitor, in front of the app's root. */
export function homePage(indexHtml: string): string {
  return indexHtml
    .replace('</head>', `<style>${STYLE}</style></head>`)
    // The built page is minified: the root's id may be unquoted.
    .replace(/<div id="?root"?>/, (root) => `<script>${FIRST_PAINT_SCRIPT}</script>${root}`);
}
