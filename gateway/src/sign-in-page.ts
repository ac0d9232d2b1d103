import { AUTH_TOKEN_KEY, TOKEN_KEY } from '@ledgerline/contracts/browser-storage.ts';
import { initials } from '@ledgerline/contracts/initials.ts';
import { COLOURS, FONT, scriptHashSource } from './first-paint.ts';

/*
 * A firm's sign-in page in the first HTML the gateway serves (/{tenant}/login): the firm's name
 * and a working sign-in form, painted before any script, so a phone shows the page at once
 * instead of after the shell, the sign-in remote and the firm's /info call. The app renders
 * underneath, hidden, and takes the form over (frontends/ui/src/first-paint.ts): it keeps what
 * was typed and where the cursor was, submits a form sent meanwhile, and removes this copy in
 * the same frame. So the markup mirrors the app's (access/login-frame.tsx, login-form.tsx) and
 * the style below reproduces its measurements (access.css, ui/theme.css, the PrimeReact theme);
 * the first-paint browser test holds the two to the same boxes.
 */

/** The firm's public facts (identity's GET /api/{tenant}/info) the page shows. */
export interface FirmSignInInfo {
  name: string;
  shortName: string;
  isActive: boolean;
  clientEmailSignIn?: boolean;
  passkeySignIn?: boolean;
}

/** The element ids the app's takeover looks for (frontends/ui/src/first-paint.ts). */
const STAND_IN_ID = 'first-paint';
const FIRM_JSON_ID = 'first-paint-firm';

/**
 * A form sent before the app has taken over is held, not posted (a plain post would put the
 * password in a URL or on a page that cannot sign in): the app sends it as it takes over.
 * A press of the passkey or e-mail button is kept the same way (`data-chosen` on the page),
 * and the app goes on with that choice.
 *
 * The app's script starts at the visitor's first act on the page (a press, a key, a touch, the
 * mouse moving), not while the page loads: the form works without it, and on a phone its
 * start-up (react-dom, the query cache and the component library: over a second of a slow
 * phone's processor) would otherwise hold the page's first taps and keystrokes. It starts at
 * once when the app has work of its own here: a stored sign-in (the app sends the visitor on
 * to the firm's pages) or a query or fragment in the address; and three seconds after the page
 * loaded when nobody acted by then (a visitor reading, a password manager about to fill), so
 * the first press is answered by a warm app.
 */
const FIRST_PAINT_SCRIPT = [
  '(function(){',
  "var p=document.getElementById('first-paint'),f=document.getElementById('first-paint-form');",
  "f.addEventListener('submit',function(e){e.preventDefault();f.setAttribute('data-submitted','');f.querySelector('.p-button-label').textContent='Signing in...';});",
  "p.addEventListener('click',function(e){var b=e.target.closest('[data-choice]');if(b){p.setAttribute('data-chosen',b.getAttribute('data-choice'));b.setAttribute('aria-busy','true');}});",
  "var acts=['pointerdown','keydown','touchstart','mousemove','input'],started=false,stored=false;",
  "function start(){if(started)return;started=true;acts.forEach(function(a){removeEventListener(a,start,true);});",
  "var s=document.createElement('script');s.src=document.querySelector('meta[name=first-paint-app]').content;document.head.appendChild(s);}",
  `try{stored=!!(localStorage.getItem('${TOKEN_KEY}')||localStorage.getItem('${AUTH_TOKEN_KEY}'));}catch(e){}`,
  'if(stored||location.search||location.hash){start();return;}',
  'acts.forEach(function(a){addEventListener(a,start,{capture:true,passive:true});});',
  "addEventListener('load',function(){setTimeout(start,3000);});",
  '})();',
].join('');

/** The CSP source that allows exactly that inline script (gateway.ts adds it to script-src). */
export const FIRST_PAINT_SCRIPT_SOURCE = scriptHashSource(FIRST_PAINT_SCRIPT);

const PRIMARY = COLOURS.primary;
// Every rule is under the stand-in's id, so the theme's style sheets, arriving later, leave it as it is.
const STYLE = [
  `#${STAND_IN_ID}~#root{display:none}`,
  `body{margin:0;font-family:${FONT};color:#4b5563;background:#f9fafb}`,
  `#${STAND_IN_ID}{display:flex;align-items:center;justify-content:center;min-height:100vh;padding:1.5rem;box-sizing:border-box;background:linear-gradient(160deg,#f5f9ff 0%,#f9fafb 55%)}`,
  `#${STAND_IN_ID} .login-card{width:100%;max-width:26rem;box-sizing:border-box;padding:2.5rem 2rem 2rem;border:1px solid #dfe7ef;border-radius:1rem;background:#fff;box-shadow:0 10px 30px rgb(15 23 42/8%)}`,
  `#${STAND_IN_ID} .login-card__mark{display:flex;align-items:center;justify-content:center;width:3.5rem;height:3.5rem;margin:0 auto 1rem;border-radius:50%;font-size:1.5rem;color:#fff;background:${PRIMARY}}`,
  `#${STAND_IN_ID} .login-card__initials{font-size:1.125rem;font-weight:700}`,
  `#${STAND_IN_ID} .login-card__title{margin:0;font-size:1.5rem;font-weight:700;text-align:center}`,
  `#${STAND_IN_ID} .login-card__subtitle{margin:.375rem 0 1.75rem;text-align:center;color:#6b7280}`,
  `#${STAND_IN_ID} .form-field{display:flex;flex-direction:column;gap:.375rem;margin-bottom:1rem}`,
  `#${STAND_IN_ID} .form-field__label{font-weight:600;font-size:.875rem}`,
  `#${STAND_IN_ID} .p-inputtext{box-sizing:border-box;width:100%;margin:0;font-family:${FONT};font-size:1rem;color:#4b5563;background:#fff;padding:.75rem;border:1px solid #d1d5db;border-radius:6px;appearance:none}`,
  `#${STAND_IN_ID} .p-inputtext:focus{outline:0;box-shadow:0 0 0 .2rem #bfdbfe;border-color:${PRIMARY}}`,
  `#${STAND_IN_ID} .p-password .p-inputtext{padding-right:2.5rem}`,
  `#${STAND_IN_ID} .p-button{box-sizing:border-box;display:inline-flex;align-items:center;vertical-align:bottom;text-align:center;margin:0;padding:.75rem 1.25rem;font-family:${FONT};font-size:1rem;color:#fff;background:${PRIMARY};border:1px solid ${PRIMARY};border-radius:6px;cursor:pointer}`,
  `#${STAND_IN_ID} .p-button-outlined{color:${PRIMARY};background:transparent}`,
  `#${STAND_IN_ID} .p-button-icon{width:1rem;height:1rem;margin-right:.5rem}`,
  `#${STAND_IN_ID} .p-button-label{flex:1 1 auto;font-weight:700}`,
  `#${STAND_IN_ID} .login-form__submit{width:100%;margin-top:.5rem}`,
  `#${STAND_IN_ID} .passkey-sign-in{margin-top:.75rem}`,
  `#${STAND_IN_ID} .mfa-step__switch{display:block;margin-top:.75rem;background:none;border:none;color:${PRIMARY};cursor:pointer;padding:0;text-decoration:underline}`,
].join('');

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

const button = (type: 'submit' | 'button', label: string, icon: string, extra = '', attributes = '') =>
  `<button type="${type}" class="login-form__submit p-button${extra}"${attributes}><span class="p-button-icon ${icon}"></span><span class="p-button-label">${label}</span></button>`;

function standIn(firm: FirmSignInInfo): string {
  const name = escapeHtml(firm.name);
  return `<div id="${STAND_IN_ID}" class="login-page"><main class="login-card">`
    + `<div class="login-card__mark" aria-hidden="true"><span class="login-card__initials">${escapeHtml(initials(firm.name))}</span></div>`
    + `<h1 class="login-card__title">${name}</h1><p class="login-card__subtitle">Sign in to your firm's portal</p>`
    + '<form id="first-paint-form" class="login-form" novalidate>'
    + '<div class="form-field"><label for="first-paint-username" class="form-field__label">Username</label>'
    + '<input id="first-paint-username" class="p-inputtext" name="username" autocomplete="username" autofocus></div>'
    + '<div class="form-field"><label for="first-paint-password" class="form-field__label">Password</label>'
    + '<div class="p-password"><input id="first-paint-password" class="p-inputtext" type="password" name="password" autocomplete="current-password"></div></div>'
    + button('submit', 'Sign In', 'pi-sign-in')
    + '</form>'
    + (firm.passkeySignIn ? `<div class="passkey-sign-in">${button('button', 'Sign in with a passkey', 'pi-key', ' p-button-outlined', ' data-choice="passkey"')}</div>` : '')
    + (firm.clientEmailSignIn ? '<button type="button" class="mfa-step__switch" data-choice="email">E-mail me a sign-in code</button>' : '')
    + `</main></div><script>${FIRST_PAINT_SCRIPT}</script>`
    // The app reads the firm from here instead of asking /info again; '<' is escaped so no name can end the script.
    + `<script type="application/json" id="${FIRM_JSON_ID}">${JSON.stringify(firm).replace(/</g, '\\u003c')}</script>`;
}

/** The shell's index.html with the firm's sign-in page in front of the app's root. */
export function firmSignInPage(indexHtml: string, firm: FirmSignInInfo): string {
  return indexHtml
    .replace('</head>', `<style>${STYLE}</style></head>`)
    // The app's script, started by the page's own script (above) instead of by the parser.
    .replace(/<script defer(?:="defer")? src="([^"]+)"><\/script>/, (_all, src: string) => `<meta name="first-paint-app" content="${escapeHtml(src)}">`)
    // Nor the libraries the shell's page preloads (ui/webpack/preload-libraries.plugin.mjs): here the
    // app waits for the visitor, and 400 KB of script fetched meanwhile shares a phone's line with the page.
    .replace(/<link rel="?preload"? as="?script"?[^>]*>/g, '')
    // Nor the app's style sheets (ui/webpack/app-stylesheets.plugin.mjs): the page carries its own
    // style, and the app brings its sheets when it starts.
    .replace(/<link rel="?stylesheet"?[^>]*>/g, '')
    // The built page is minified: the root's id may be unquoted.
    .replace(/<div id="?root"?>/, (root) => `${standIn(firm)}${root}`)
    // The tab's title from the first paint, as the app sets it once it runs.
    .replace(/<title>([^<]*)<\/title>/, (_all, product: string) => `<title>Sign In · ${product}</title>`);
}
