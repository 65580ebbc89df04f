// The indices: GET /1/indexes as a table, with create, clear, copy and delete (admin only). A
// read-only (search key) view cannot list indices: it opens one by name.
import { api, indexPath } from '/dashboard/assets/api.js';
import { EDIT, ask, errorSlot, fill, formatBytes, formatDate, formatNumber, h, showError, statusSlot } from '/dashboard/assets/dom.js';

const indexURL = (name) => `/dashboard/indexes/${encodeURIComponent(name)}`;

export function renderIndices(view, context) {
  view.append(h('h1', { tabindex: -1 }, 'Indices'));
  if (!context.admin) {
    view.append(openByName(context));
    return;
  }
  const error = errorSlot('indices-error');
  const status = statusSlot('indices-status');
  const body = h('tbody');
  const table = h('table', { id: 'indices-table', class: 'data' },
    h('caption', { class: 'visually-hidden' }, 'Indices of this server'),
    h('thead', {}, h('tr', {},
      h('th', { scope: 'col' }, 'Name'), h('th', { scope: 'col', class: 'num' }, 'Records'),
      h('th', { scope: 'col', class: 'num wide-only' }, 'Size'), h('th', { scope: 'col', class: 'wide-only' }, 'Updated'),
      h('th', { scope: 'col' }, 'Actions'))),
    body);

  async function load() {
    showError(error, '');
    let answer;
    try {
      answer = await api('GET', '/1/indexes');
    } catch (failure) {
      showError(error, failure);
      return;
    }
    const items = answer.items || [];
    fill(body, items.length ? items.map(row) : h('tr', {}, h('td', { colspan: 5, class: 'muted' }, 'No indices yet: create one below, or import records with `offline-search import`.')));
  }

  function row(item) {
    const rowError = errorSlot();
    const act = async (button, question, options, request, done) => {
      const answer = await ask(question, options);
      if (answer === false || answer === null) return;
      button.disabled = true;
      try {
        await request(answer);
        status.textContent = done(answer);
        await load();
      } catch (failure) {
        button.disabled = false;
        showError(rowError, failure);
      }
    };
    const clear = h('button', { type: 'button', ...EDIT, 'data-action': 'clear', 'aria-label': `Clear ${item.name}` }, 'Clear');
    const copy = h('button', { type: 'button', ...EDIT, 'data-action': 'copy', 'aria-label': `Copy ${item.name}` }, 'Copy');
    const remove = h('button', { type: 'button', class: 'danger', ...EDIT, 'data-action': 'delete', 'aria-label': `Delete ${item.name}` }, 'Delete');
    clear.addEventListener('click', () => act(clear,
      `Clear every record of ${item.name}? Its settings, synonyms and rules stay.`, { confirmLabel: 'Clear records' },
      () => api('POST', indexPath(item.name, 'clear')), () => `${item.name} was cleared.`));
    copy.addEventListener('click', () => act(copy,
      `Copy ${item.name} (records, settings, synonyms, rules) to the index named below. An index of that name is replaced.`,
      { confirmLabel: 'Copy', danger: false, input: { label: 'Destination index', value: `${item.name}_copy` } },
      (destination) => api('POST', indexPath(item.name, 'operation'), { operation: 'copy', destination }),
      (destination) => `${item.name} was copied to ${destination}.`));
    remove.addEventListener('click', () => act(remove,
      `Delete the index ${item.name} and its ${formatNumber(item.entries)} records? This cannot be undone.`, { confirmLabel: 'Delete index' },
      () => api('DELETE', indexPath(item.name)), () => `${item.name} was deleted.`));
    return h('tr', { 'data-index': item.name },
      h('td', {}, h('a', { href: indexURL(item.name), 'data-test': 'index-link' }, item.name)),
      h('td', { class: 'num', 'data-test': 'entries' }, formatNumber(item.entries)),
      h('td', { class: 'num wide-only' }, formatBytes(item.dataSize)),
      h('td', { class: 'wide-only' }, h('time', { datetime: item.updatedAt || '' }, formatDate(item.updatedAt))),
      h('td', { class: 'actions' }, clear, copy, remove, rowError));
  }

  // Creating an index: PUT /1/indexes/NAME/settings with {} (an empty index with the defaults).
  const nameInput = h('input', { type: 'text', id: 'create-index-name', required: true, autocomplete: 'off', ...EDIT });
  const createError = errorSlot('create-index-error');
  const createForm = h('form', { class: 'inline-form', id: 'create-index-form', ...EDIT },
    h('label', { for: 'create-index-name' }, 'New index'), nameInput,
    h('button', { type: 'submit', id: 'create-index', ...EDIT }, 'Create'), createError);
  createForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    const name = nameInput.value.trim();
    if (!name) return;
    showError(createError, '');
    try {
      await api('PUT', indexPath(name, 'settings'), {});
      nameInput.value = '';
      status.textContent = `${name} was created.`;
      await load();
    } catch (failure) {
      showError(createError, failure);
    }
  });

  view.append(error, status, h('div', { class: 'table-scroll' }, table), createForm);
  load();
}

/** The read-only view's way in: an index name typed, opened as /dashboard/indexes/NAME. */
function openByName(context) {
  const input = h('input', { type: 'text', id: 'open-index-name', required: true, autocomplete: 'off' });
  const form = h('form', { class: 'inline-form', id: 'open-index-form' },
    h('label', { for: 'open-index-name' }, 'Index name'), input,
    h('button', { type: 'submit', id: 'open-index' }, 'Open'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const name = input.value.trim();
    if (name) context.navigate(indexURL(name));
  });
  return h('div', { class: 'card' },
    h('p', {}, 'This key can search but not list or change indices. Open an index by its name:'), form);
}
