// The signing page (PUBLIC_BASE_URL/sign/{token} for a link, /sign/portal/{firm}/{id} for a
// signed-in Client user): one step after another — consent, open the documents, identity
// check, fields and signature, confirm — or decline. Everything it shows comes from the
// signing calls (the public ones by token, or the signed-in user's own with the portal's
// stored sign-in); it keeps nothing.
(function () {
  'use strict';
  var parts = location.pathname.split('/').map(decodeURIComponent);
  var portal = parts[2] === 'portal';
  var firm = portal ? parts[3] : '';
  var bearer = portal ? (localStorage.getItem('authToken') || localStorage.getItem('token')) : null;
  var api = portal
    ? '/api/' + encodeURIComponent(firm) + '/signature-requests/' + encodeURIComponent(parts[4] || '') + '/signing'
    : '/api/public/signing/' + encodeURIComponent(parts.pop() || '');
  var app = document.getElementById('app');
  var view = null;
  var drawn = null;

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === 'text') node.textContent = attrs[k];
      else if (k.slice(0, 2) === 'on') node.addEventListener(k.slice(2), attrs[k]);
      else node.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) { if (c) node.appendChild(c); });
    return node;
  }

  function headers(json) {
    var h = json ? { 'content-type': 'application/json' } : {};
    if (bearer) h.authorization = 'Bearer ' + bearer;
    return h;
  }

  function call(method, path, body) {
    return fetch(api + path, { method: method, headers: headers(!!body), body: body ? JSON.stringify(body) : undefined })
      .then(function (r) {
        if (r.status === 401 && portal) throw Object.assign(new Error('Sign in to the portal first, then open this page again.'), { status: 410 });
        return r.text().then(function (t) {
          var json = t ? JSON.parse(t) : {};
          if (!r.ok) throw Object.assign(new Error(json.message || 'Something went wrong. Please try again.'), { status: r.status });
          return json;
        });
      });
  }

  function fail(where) {
    return function (err) {
      if (err.status === 410) return message(err.message, false);
      where.textContent = err.message;
    };
  }

  function message(text, done) {
    app.replaceChildren(el('div', { class: 'message' + (done ? ' done' : ''), text: text }));
  }

  /** A signed-in signer's documents: fetched with the stored sign-in (a plain link carries none), shown in a new tab. */
  function openDocuments(error) {
    var tab = window.open('', '_blank');
    fetch(api + '/document', { headers: headers(false) }).then(function (r) {
      if (!r.ok) throw new Error('The documents could not be opened.');
      return r.blob();
    }).then(function (blob) {
      if (tab) tab.location.href = URL.createObjectURL(blob);
      load();
    }, function (err) { if (tab) tab.close(); error.textContent = err.message; });
  }

  // A link signer's documents open in another tab, whose download records the viewing. The
  // page reads its state again until the viewing shows (a slow server records it after the
  // first look) and whenever the signer comes back to this tab; each look is one call of the
  // link's per-minute allowance, so the checks are few and spaced.
  var VIEWING_CHECKS = 6;
  function awaitViewing(checksLeft) {
    setTimeout(function () {
      load().then(function () { if (checksLeft > 1 && waitingForViewing()) awaitViewing(checksLeft - 1); });
    }, 2000);
  }
  function waitingForViewing() { return !!view && !!view.you.consentedAt && !view.you.viewedAt; }
  document.addEventListener('visibilitychange', function () { if (!document.hidden && waitingForViewing()) load(); });

  function load() {
    if (portal && !bearer) {
      app.replaceChildren(el('div', { class: 'message' }, [document.createTextNode('Sign in to the portal first, then open this page again. '),
        el('a', { href: '/' + encodeURIComponent(firm) + '/login', text: 'Sign in' })]));
      return Promise.resolve();
    }
    return call('GET', '').then(function (v) { view = v; render(); }, function (err) { message(err.message, false); });
  }

  function step(title, done, body) {
    return el('section', { class: done ? 'done' : '' }, [el('h3', { text: title })].concat(body));
  }

  function render() {
    var you = view.you;
    if (you.status !== 'pending' || view.status !== 'sent') return message(view.status === 'completed' || you.status === 'signed' ? 'Thank you: you have signed. The firm keeps the signed document.' : 'This request is no longer waiting for your signature.', you.status === 'signed');
    var error = el('p', { class: 'error', role: 'alert' });
    var parts = [el('header', {}, [el('h1', { text: view.firmName }), el('h2', { text: view.title }), view.message ? el('p', { text: view.message }) : null,
      el('p', { class: 'muted', text: 'Signing as ' + you.name + ' (' + you.role + ')' })])];
    if (!you.yourTurn) {
      parts.push(el('div', { class: 'message', text: 'Another signer signs first. You will be e-mailed when it is your turn.' }));
      app.replaceChildren.apply(app, parts);
      return;
    }
    parts.push(step('1. Agree to sign electronically', !!you.consentedAt, view.disclosure.paragraphs.map(function (p) { return el('p', { class: 'muted', text: p }); })
      .concat(you.consentedAt ? [] : [el('button', { text: 'I agree', onclick: function () { call('POST', '/consent').then(load, fail(error)); } })])));
    if (you.consentedAt) {
      parts.push(step('2. Read the documents', !!you.viewedAt, [
        el('p', { class: 'muted', text: view.documents.map(function (d) { return d.name + ' (' + d.pages + ' page' + (d.pages === 1 ? '' : 's') + ')'; }).join(', ') }),
        portal
          ? el('button', { text: 'Open the documents', onclick: function () { openDocuments(error); } })
          : el('a', { class: 'button', href: api + '/document', target: '_blank', rel: 'noopener', text: 'Open the documents', onclick: function () { awaitViewing(VIEWING_CHECKS); } }),
      ]));
    }
    if (you.consentedAt && you.viewedAt) parts.push(identityStep(error));
    if (you.consentedAt && you.viewedAt && you.identityVerifiedAt) parts.push(signStep(error));
    parts.push(declineStep(error));
    parts.push(error);
    app.replaceChildren.apply(app, parts);
  }

  function identityStep(error) {
    var you = view.you;
    if (you.identityVerifiedAt) return step('3. Confirm it is you', true, [el('p', { class: 'muted', text: 'Confirmed.' })]);
    if (you.lockedOut) return step('3. Confirm it is you', false, [el('p', { class: 'error', text: 'Too many wrong answers. Contact the firm.' })]);
    if (view.identity === 'knowledge') {
      var inputs = view.knowledgeQuestions.map(function (q) { return el('input', { type: 'text', 'aria-label': q }); });
      var fields = view.knowledgeQuestions.map(function (q, i) { return el('label', { text: q }, [inputs[i]]); });
      return step('3. Confirm it is you', false, fields.concat([el('button', { text: 'Confirm', onclick: function () {
        call('POST', '/identity', { answers: inputs.map(function (i) { return i.value; }) }).then(load, fail(error));
      } })]));
    }
    if (view.identity === 'provider') return step('3. Confirm it is you', false, [el('p', { class: 'error', text: 'Identity verification is not available. Contact the firm.' })]);
    var code = el('input', { type: 'text', inputmode: 'numeric', autocomplete: 'one-time-code', maxlength: '6', 'aria-label': 'Code' });
    // A signed-in signer with an authenticator app may use a fresh code of it (identity checks it); the e-mailed code stays.
    var authenticator = portal && (you.factors || []).indexOf('totp') >= 0 ? authenticatorOption(error) : [];
    return step('3. Confirm it is you', false, authenticator.concat([
      el('p', { class: 'muted', text: (authenticator.length ? 'Or: we e-mail' : 'We e-mail') + ' a 6-digit code to ' + you.email + '.' }),
      el('button', { class: 'secondary', text: 'E-mail me a code', onclick: function () { call('POST', '/code').then(function (r) { error.textContent = r.message; }, fail(error)); } }),
      el('label', { text: 'Code' }, [code]),
      el('button', { text: 'Confirm', onclick: function () { call('POST', '/identity', { code: code.value.trim() }).then(load, fail(error)); } }),
    ]));
  }

  function authenticatorOption(error) {
    var totp = el('input', { type: 'text', inputmode: 'numeric', autocomplete: 'one-time-code', maxlength: '6', 'aria-label': 'Authenticator code' });
    return [
      el('label', { text: 'Enter the 6-digit code from your authenticator app' }, [totp]),
      el('button', { text: 'Confirm', 'aria-label': 'Confirm authenticator code', onclick: function () { call('POST', '/identity', { totp: totp.value.trim() }).then(load, fail(error)); } }),
    ];
  }

  function signStep(error) {
    var typed = el('input', { type: 'text', class: 'typed', value: view.you.name, 'aria-label': 'Your signature' });
    var canvas = el('canvas', { width: '600', height: '180', 'aria-label': 'Draw your signature' });
    drawn = null;
    var ctx = canvas.getContext('2d');
    var down = false;
    function at(e) { var r = canvas.getBoundingClientRect(); return [(e.clientX - r.left) * canvas.width / r.width, (e.clientY - r.top) * canvas.height / r.height]; }
    canvas.addEventListener('pointerdown', function (e) { down = true; var p = at(e); ctx.beginPath(); ctx.moveTo(p[0], p[1]); ctx.lineWidth = 3; drawn = true; });
    canvas.addEventListener('pointermove', function (e) { if (!down) return; var p = at(e); ctx.lineTo(p[0], p[1]); ctx.stroke(); });
    ['pointerup', 'pointerleave'].forEach(function (n) { canvas.addEventListener(n, function () { down = false; }); });
    var values = {};
    var inputs = view.fields.filter(function (f) { return f.type === 'text' || f.type === 'checkbox' || f.type === 'date'; }).map(function (f) {
      var name = (f.label || (f.type === 'date' ? 'Date' : 'Field')) + ' (page ' + f.page + ')';
      var input = f.type === 'checkbox' ? el('input', { type: 'checkbox' }) : el('input', { type: 'text', placeholder: f.type === 'date' ? 'today if left empty' : '' });
      values[f.index] = input;
      return el('label', { text: name + (f.required ? ' *' : '') }, [input]);
    });
    var agree = el('input', { type: 'checkbox' });
    return step('4. Sign', false, inputs.concat([
      el('label', { text: 'Type your name' }, [typed]),
      el('label', { text: 'or draw your signature' }, [canvas]),
      el('button', { class: 'secondary', text: 'Clear drawing', onclick: function () { ctx.clearRect(0, 0, canvas.width, canvas.height); drawn = null; } }),
      el('label', {}, [agree, document.createTextNode(' I agree that this is my signature on these documents.')]),
      el('button', { text: 'Sign', onclick: function () {
        var out = {};
        Object.keys(values).forEach(function (k) { var i = values[k]; if (i.type === 'checkbox') { if (i.checked) out[k] = true; } else if (i.value.trim()) out[k] = i.value.trim(); });
        var adoption = drawn ? { kind: 'drawn', png: canvas.toDataURL('image/png').split(',')[1] } : { kind: 'typed', text: typed.value };
        call('POST', '/sign', { adoption: adoption, values: out, confirm: agree.checked }).then(function (v) { view = v; render(); }, fail(error));
      } }),
    ]));
  }

  function declineStep(error) {
    var reason = el('textarea', { rows: '2', 'aria-label': 'Why you decline' });
    return el('details', {}, [el('summary', { text: 'Decline to sign' }), reason,
      el('button', { class: 'secondary', text: 'Decline', onclick: function () { call('POST', '/decline', { reason: reason.value }).then(function () { message('You declined. The firm has been told.', false); }, fail(error)); } })]);
  }

  load();
})();
