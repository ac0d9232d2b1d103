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

  function load() {
    fetch(api, { cache: 'no-store' }).then(function (r) {
      return r.json().then(function (body) {
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
        el('p', { class: 'muted', text: 'For ' + request.clientName + ' · due ' + request.dueDate }),
        request.message ? el('p', { text: request.message }) : null,
        el('p', { class: 'muted', text: done.length + ' of ' + required.length + ' required items in' }),
        bar,
      ]),
    );
    request.items.forEach(function (item) { app.appendChild(renderItem(item)); });
  }

  function renderItem(item) {
    var needed = item.status === 'requested' || item.status === 'rejected';
    var card = el('section', { class: 'item' }, [
      el('h3', {}, [el('span', { text: item.title + (item.required ? '' : ' (optional)') }), el('span', { class: 'badge ' + (needed ? 'todo' : 'done'), text: STATUS[item.status] || item.status })]),
      item.description ? el('p', { class: 'muted', text: item.description }) : null,
      item.fileCount ? el('p', { class: 'muted', text: item.fileCount + (item.fileCount === 1 ? ' file received' : ' files received') }) : null,
    ]);
    if (item.status === 'accepted') return card;
    var error = el('p', { class: 'error', role: 'alert' });
    var progress = el('div', { class: 'bar' }, [el('span')]);
    var inputId = 'file-' + item.id;
    var input = el('input', { type: 'file', id: inputId, accept: '__REQUEST_UPLOAD_ACCEPT__' });
    input.addEventListener('change', function () { if (input.files && input.files[0]) upload(item, input.files[0], progress, error); });
    var actions = el('div', { class: 'actions' }, [input, el('label', { class: 'button', for: inputId, text: item.fileCount ? 'Upload another file' : 'Upload a file or photo' })]);
    if (needed) {
      var why = el('textarea', { rows: '2', placeholder: 'Why does this not apply?', 'aria-label': 'Why does this not apply?' });
      why.style.display = 'none';
      var na = el('button', { type: 'button', class: 'secondary', text: 'This does not apply' });
      na.addEventListener('click', function () {
        if (why.style.display === 'none') { why.style.display = 'block'; why.focus(); return; }
        notApplicable(item, why.value, error);
      });
      actions.appendChild(na);
      card.appendChild(actions);
      card.appendChild(why);
    } else {
      card.appendChild(actions);
    }
    card.appendChild(progress);
    card.appendChild(error);
    return card;
  }

  function upload(item, file, progress, error) {
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
      if (xhr.status >= 200 && xhr.status < 300) render(body);
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
