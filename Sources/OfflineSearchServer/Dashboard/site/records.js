// Records: browse 20 at a time (a cursor for the next page), view and edit one as JSON, delete,
// add one from JSON, import a JSON file in batches of 1,000.
import { api, indexPath } from '/dashboard/assets/api.js';
import { EDIT, ask, errorSlot, fill, formatNumber, h, parseJSON, pretty, recordTitle, showError, statusSlot } from '/dashboard/assets/dom.js';

const PAGE_SIZE = 20;
const BATCH_SIZE = 1000;

/** The JSON object typed in `textarea`, or an Error that says what is wrong. */
function recordFrom(textarea) {
  const record = parseJSON(textarea.value, 'record');
  if (!record || typeof record !== 'object' || Array.isArray(record)) throw new Error('A record is a JSON object.');
  return record;
}

export function renderRecords(panel, index) {
  let cursor = null; // of the page shown
  let nextCursor = null;
  let page = 0;

  const error = errorSlot('records-error');
  const status = statusSlot('records-status');
  const count = h('p', { id: 'records-count', class: 'stats' });
  const body = h('tbody');
  const first = h('button', { type: 'button', id: 'records-first', disabled: true }, 'First page');
  const next = h('button', { type: 'button', id: 'records-next', disabled: true }, 'Next page →');
  const pageInfo = h('span', { id: 'records-page' });
  const editor = h('section', { id: 'record-editor', class: 'card', hidden: true });

  async function browse() {
    showError(error, '');
    try {
      const answer = await api('POST', indexPath(index, 'browse'), cursor ? { hitsPerPage: PAGE_SIZE, cursor } : { hitsPerPage: PAGE_SIZE });
      nextCursor = answer.cursor || null;
      count.textContent = `${formatNumber(answer.nbHits)} records`;
      pageInfo.textContent = `Page ${page + 1}`;
      first.disabled = page === 0;
      next.disabled = !nextCursor;
      fill(body, answer.hits?.length ? answer.hits.map((record) => h('tr', { 'data-object-id': record.objectID },
        h('td', {}, h('code', {}, record.objectID)),
        h('td', {}, recordTitle(record)),
        h('td', {}, h('button', { type: 'button', class: 'small', 'data-test': 'record-open', onclick: () => open(record.objectID) }, 'Open'))))
        : h('tr', {}, h('td', { colspan: 3, class: 'muted' }, 'No records.')));
    } catch (failure) {
      showError(error, failure);
    }
  }
  first.addEventListener('click', () => { [cursor, page] = [null, 0]; browse(); });
  next.addEventListener('click', () => { [cursor, page] = [nextCursor, page + 1]; browse(); });

  /** Opens a record (GET) as JSON to edit and save (PUT), or delete. */
  async function open(objectID) {
    const textarea = h('textarea', { id: 'record-json', rows: 16, spellcheck: false, 'aria-labelledby': 'record-editor-title' });
    const editorError = errorSlot('record-error');
    const editorStatus = statusSlot('record-status');
    const save = h('button', { type: 'button', id: 'record-save', ...EDIT }, 'Save');
    const remove = h('button', { type: 'button', id: 'record-delete', class: 'danger', ...EDIT }, 'Delete');
    const close = h('button', { type: 'button', id: 'record-close', class: 'quiet', onclick: () => { editor.hidden = true; } }, 'Close');
    fill(editor, h('h3', { id: 'record-editor-title', tabindex: -1 }, 'Record ', h('code', {}, objectID)),
      textarea, h('div', { class: 'actions' }, save, remove, close), editorError, editorStatus);
    editor.hidden = false;
    editor.firstChild.focus();
    try {
      // By objectID in the body: an objectID such as "." or "settings" in the path would name
      // another route once the browser normalizes the URL.
      const found = (await api('POST', '/1/indexes/*/objects', { requests: [{ indexName: index, objectID }] })).results?.[0];
      if (!found) throw new Error(`Record ${objectID} does not exist (any more).`);
      textarea.value = pretty(found);
    } catch (failure) {
      showError(editorError, failure);
    }
    save.addEventListener('click', async () => {
      showError(editorError, '');
      editorStatus.textContent = '';
      try {
        const record = recordFrom(textarea);
        if (record.objectID !== undefined && String(record.objectID) !== objectID) {
          throw new Error('The objectID cannot change here: add the record with its new objectID instead.');
        }
        await api('POST', indexPath(index, 'batch'), { requests: [{ action: 'updateObject', body: { ...record, objectID } }] });
        editorStatus.textContent = 'Saved.';
        browse();
      } catch (failure) {
        showError(editorError, failure);
      }
    });
    remove.addEventListener('click', async () => {
      if (!await ask(`Delete the record ${objectID}?`, { confirmLabel: 'Delete record' })) return;
      try {
        await api('POST', indexPath(index, 'batch'), { requests: [{ action: 'deleteObject', body: { objectID } }] });
        editor.hidden = true;
        status.textContent = `Record ${objectID} was deleted.`;
        browse();
      } catch (failure) {
        showError(editorError, failure);
      }
    });
  }

  // One record added: POST /1/indexes/NAME (its objectID if it has one, else a generated one).
  const newRecord = h('textarea', { id: 'record-new-json', rows: 6, spellcheck: false, placeholder: '{"name": "A new product", "brand": "Acme"}', ...EDIT });
  const addError = errorSlot('record-add-error');
  const add = h('button', { type: 'button', id: 'record-add', ...EDIT }, 'Add record');
  add.addEventListener('click', async () => {
    showError(addError, '');
    try {
      const answer = await api('POST', indexPath(index), recordFrom(newRecord));
      newRecord.value = '';
      status.textContent = `Record ${answer.objectID} was added.`;
      browse();
      open(answer.objectID);
    } catch (failure) {
      showError(addError, failure);
    }
  });

  // A file imported: its array of records, in batches of 1,000 (addObject), the bar moving per batch.
  const file = h('input', { type: 'file', id: 'import-file', accept: '.json,application/json', ...EDIT });
  const importButton = h('button', { type: 'button', id: 'import-start', ...EDIT }, 'Import');
  const progress = h('progress', { id: 'import-progress', max: 1, value: 0, hidden: true, 'aria-label': 'Import progress' });
  const importStatus = statusSlot('import-status');
  const importError = errorSlot('import-error');
  importButton.addEventListener('click', async () => {
    showError(importError, '');
    importStatus.textContent = '';
    if (!file.files[0]) return showError(importError, 'Choose a JSON file first.');
    importButton.disabled = true;
    try {
      const records = parseJSON(await file.files[0].text(), 'file');
      if (!Array.isArray(records)) throw new Error('The file must hold a JSON array of records.');
      Object.assign(progress, { max: Math.max(records.length, 1), value: 0, hidden: false });
      for (let start = 0; start < records.length; start += BATCH_SIZE) {
        const batch = records.slice(start, start + BATCH_SIZE);
        await api('POST', indexPath(index, 'batch'), { requests: batch.map((record) => ({ action: 'addObject', body: record })) });
        progress.value = start + batch.length;
        importStatus.textContent = `Imported ${formatNumber(progress.value)} of ${formatNumber(records.length)} records.`;
      }
      if (!records.length) importStatus.textContent = 'The file has no records.';
      browse();
    } catch (failure) {
      showError(importError, failure);
    } finally {
      importButton.disabled = false;
    }
  });

  panel.append(
    h('h2', {}, 'Records'), count, error, status,
    h('div', { class: 'table-scroll' }, h('table', { id: 'records-table', class: 'data' },
      h('caption', { class: 'visually-hidden' }, `Records of ${index}`),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'objectID'), h('th', { scope: 'col' }, 'Title'), h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Open')))),
      body)),
    h('nav', { class: 'pager', 'aria-label': 'Record pages' }, first, pageInfo, next),
    editor,
    h('div', { class: 'columns' },
      h('section', { class: 'card', ...EDIT },
        h('h3', {}, h('label', { for: 'record-new-json' }, 'Add a record (JSON)')),
        newRecord, h('div', { class: 'actions' }, add), addError),
      h('section', { class: 'card', ...EDIT },
        h('h3', {}, h('label', { for: 'import-file' }, 'Import a JSON file')),
        h('p', { class: 'muted' }, `An array of records, sent ${formatNumber(BATCH_SIZE)} at a time; a record with an existing objectID replaces it.`),
        file, h('div', { class: 'actions' }, importButton), progress, importStatus, importError)));
  browse();
  // /dashboard/indexes/NAME/records?objectID=ID opens that record (the search preview links there).
  const requested = new URLSearchParams(location.search).get('objectID');
  if (requested) open(requested);
}
