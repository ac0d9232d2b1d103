// The page behind a document-request link: no account, no framework, made for a phone.
// It reads the token from its own address and talks only to the public link calls.
(function () {
  'use strict';
  var token = decodeURIComponent(location.pathname.split('/').filter(Boolean).pop() || '');
  var api = '/api/public/document-requests/' + encodeURIComponent(token);
  var app = document.getElementById('app');
  var STATUS = { requested: 'Needed', uploaded: 'Received', accepted: 'Accepted', rejected: 'Needed', not_applicable: 'Does not apply' };

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { if (k === 'text') node.textContent = attrs[k]; else node.setAttribute(k, attrs[k]); });
    (children || []).forEach(function (c) { if (c) node.appendChild(c); });
    return node;
  }

  function showMessage(text) {
    app.replaceChildren(el('p', { class: 'message', text: text }));
  }

  // An expired or revoked link (410): offer a new one by e-mail, to the address the link was
  // sent to. The answer is the same whatever the token, so it says "if".
  function showExpired(text) {
    var note = el('p', { class: 'muted', role: 'status' });
    var again = el('button', { type: 'button', text: 'E-mail me a new link' });
    again.addEventListener('click', function () {
      again.disabled = true;
      fetch(api + '/new-link', { method: 'POST' })
        .then(function (r) { return r.json(); })
        .then(function (body) { note.textContent = body.message || 'Please try again later.'; })
        .catch(function () { again.disabled = false; note.textContent = 'The portal could not be reached. Please try again.'; });
    });
    app.replaceChildren(el('p', { class: 'message', text: text }), el('div', { class: 'actions' }, [again]), note);
  }

  function load() {
    fetch(api, { cache: 'no-store' }).then(function (r) {
      return r.json().then(function (body) {
        if (r.status === 410 && /expired/.test(body.message || '')) { showExpired(body.message); return; }
        if (!r.ok) { showMessage(body.message || 'This link does not work.'); return; }
        render(body);
      });
    }).catch(function () { showMessage('The portal could not be reached. Check your connection and try again.'); });
  }

  function render(request) {
    var required = request.items.filter(function (i) { return i.required; });
    var done = required.filter(function (i) { return i.status !== 'requested' && i.status !== 'rejected'; });
    var percent = required.length ? Math.round((done.length / required.length) * 100) : 100;
    var bar = el('div', { class: 'progress', role: 'progressbar', 'aria-valuenow': String(percent), 'aria-valuemin': '0', 'aria-valuemax': '100' }, [el('span')]);
    bar.firstChild.style.width = percent + '%';
    app.replaceChildren(
      el('header', {}, [
        el('h1', { text: request.firmName }),
        el('h2', { text: request.title }),
        el('p', { class: 'muted', text: 'For ' + request.clientName + ' · due ' + (request.dueDateText || request.dueDate) }),
        request.message ? el('p', { text: request.message }) : null,
        el('p', { class: 'muted', text: done.length + ' of ' + required.length + ' required items in' }),
        bar,
      ]),
    );
    if (request.allDone) {
      app.appendChild(el('p', { class: 'message done', role: 'status', text: 'All done, thank you! ' + request.firmName + ' has everything it asked for and will be in touch if anything else is needed.' }));
    }
    request.items.forEach(function (item) { app.appendChild(renderItem(item)); });
  }

  function renderItem(item) {
    var needed = item.status === 'requested' || item.status === 'rejected';
    var card = el('section', { class: 'item' }, [
      el('h3', {}, [el('span', { text: item.title + (item.required ? '' : ' (optional)') }), el('span', { class: 'badge ' + (needed ? 'todo' : 'done'), text: STATUS[item.status] || item.status })]),
      item.description ? el('p', { class: 'muted', text: item.description }) : null,
      item.returnedReason ? el('p', { class: 'returned', text: 'Returned: ' + item.returnedReason }) : null,
      item.fileCount ? el('p', { class: 'muted', text: item.fileCount + (item.fileCount === 1 ? ' file received' : ' files received') }) : null,
    ]);
    if (item.status === 'accepted') return card;
    var error = el('p', { class: 'error', role: 'alert' });
    var progress = el('div', { class: 'bar' }, [el('span')]);
    var inputId = 'file-' + item.id;
    var input = el('input', { type: 'file', id: inputId, multiple: 'multiple', accept: '__REQUEST_UPLOAD_ACCEPT__' });
    // Several files per pick: each is its own upload, one after another.
    input.addEventListener('change', function () { if (input.files && input.files.length) uploadAll(item, Array.prototype.slice.call(input.files), progress, error); });
    var actions = el('div', { class: 'actions' }, [input, el('label', { class: 'button', for: inputId, text: item.fileCount ? 'Upload more files' : 'Upload files or photos' })]);
    if (needed) {
      // "Does not apply" in one step: the reason and its button, together.
      var whyId = 'why-' + item.id;
      var why = el('textarea', { id: whyId, rows: '2', placeholder: 'Why does this not apply?' });
      var na = el('button', { type: 'submit', class: 'secondary', text: 'This does not apply' });
      var form = el('form', { class: 'not-applicable' }, [el('label', { for: whyId, class: 'muted', text: 'Does not apply? Say why:' }), why, el('div', { class: 'actions' }, [na])]);
      form.addEventListener('submit', function (e) { e.preventDefault(); notApplicable(item, why.value, error); });
      card.appendChild(actions);
      card.appendChild(form);
    } else {
      card.appendChild(actions);
    }
    card.appendChild(progress);
    card.appendChild(error);
    return card;
  }

  function uploadAll(item, files, progress, error) {
    var next = function (latest) {
      if (!files.length) { if (latest) render(latest); return; }
      upload(item, files.shift(), progress, error, next);
    };
    next(null);
  }

  function upload(item, file, progress, error, then) {
    var form = new FormData();
    form.append('file', file, file.name);
    var xhr = new XMLHttpRequest();
    xhr.open('POST', api + '/items/' + item.id + '/files');
    progress.style.display = 'block';
    error.textContent = '';
    xhr.upload.onprogress = function (e) { if (e.lengthComputable) progress.firstChild.style.width = Math.round((e.loaded / e.total) * 100) + '%'; };
    xhr.onload = function () {
      var body = {};
      try { body = JSON.parse(xhr.responseText); } catch (e) { /* an empty or non-JSON answer */ }
      if (xhr.status >= 200 && xhr.status < 300) then(body);
      else { progress.style.display = 'none'; error.textContent = body.message || 'The upload failed. Please try again.'; }
    };
    xhr.onerror = function () { progress.style.display = 'none'; error.textContent = 'The upload was interrupted. Please try again.'; };
    xhr.send(form);
  }

  function notApplicable(item, comment, error) {
    fetch(api + '/items/' + item.id + '/not-applicable', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ comment: comment }) })
      .then(function (r) { return r.json().then(function (body) { if (r.ok) render(body); else error.textContent = body.message || 'That did not work. Please try again.'; }); })
      .catch(function () { error.textContent = 'The portal could not be reached. Please try again.'; });
  }

  load();
})();
