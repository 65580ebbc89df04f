// Synonyms and Rules: the index's list (POST …/search), each viewed and edited as JSON (PUT
// …/ID), deleted (DELETE …/ID), and new ones written from a template.
import { api, indexPath } from '/dashboard/assets/api.js';
import { EDIT, ask, errorSlot, fill, formatNumber, h, parseJSON, pretty, showError, statusSlot } from '/dashboard/assets/dom.js';

const SYNONYMS = {
  id: 'synonyms',
  title: 'Synonyms',
  noun: 'synonym',
  search: { query: '', hitsPerPage: 100 },
  template: { objectID: 'tv-television', type: 'synonym', synonyms: ['tv', 'television'] },
  summary: (item) => {
    if (item.type === 'oneWaySynonym') return `${item.input} → ${(item.synonyms || []).join(', ')}`;
    if (item.type === 'altCorrection1' || item.type === 'altCorrection2') return `${item.word} ≈ ${(item.corrections || []).join(', ')}`;
    if (item.type === 'placeholder') return `${item.placeholder} = ${(item.replacements || []).join(', ')}`;
    return (item.synonyms || []).join(' = ');
  },
};

const RULES = {
  id: 'rules',
  title: 'Rules',
  noun: 'rule',
  search: { query: '' },
  template: {
    objectID: 'my-rule',
    description: 'What the rule does',
    conditions: [{ pattern: 'tv', anchoring: 'contains' }],
    consequence: { params: { query: { edits: [{ type: 'remove', delete: 'tv' }] } } },
  },
  summary: (item) => item.description
    || (item.conditions || []).map((condition) => `${condition.anchoring || ''} “${condition.pattern ?? ''}”`).join(', ')
    || '(no condition)',
};

export const renderSynonyms = (panel, index) => renderList(panel, index, SYNONYMS);
export const renderRules = (panel, index) => renderList(panel, index, RULES);

function renderList(panel, index, kind) {
  const error = errorSlot(`${kind.id}-error`);
  const status = statusSlot(`${kind.id}-status`);
  const count = h('p', { class: 'stats', id: `${kind.id}-count` });
  const list = h('ul', { class: 'item-list', id: `${kind.id}-list` });

  async function load() {
    showError(error, '');
    try {
      const answer = await api('POST', indexPath(index, kind.id, 'search'), kind.search);
      const items = answer.hits || [];
      count.textContent = `${formatNumber(answer.nbHits ?? items.length)} ${kind.noun}${(answer.nbHits ?? items.length) === 1 ? '' : 's'}`;
      fill(list, items.length ? items.map(row) : h('li', { class: 'muted' }, `No ${kind.noun}s yet.`));
    } catch (failure) {
      showError(error, failure);
    }
  }

  /** One item: a summary, and its JSON to edit behind a disclosure. */
  function row(item) {
    const id = `${kind.id}-json-${item.objectID}`;
    const editor = editorFor(item, id, false);
    return h('li', { 'data-object-id': item.objectID },
      h('details', {},
        h('summary', {}, h('code', {}, item.objectID), ' ', h('span', {}, kind.summary(item))),
        editor));
  }

  /** A textarea of JSON with Save (PUT …/ID) and, for an existing item, Delete. */
  function editorFor(item, id, isNew) {
    const textarea = h('textarea', { id, rows: isNew ? 8 : Math.min(pretty(item).split('\n').length + 1, 20), spellcheck: false, 'aria-label': `${kind.noun} JSON`, ...EDIT });
    textarea.value = pretty(item);
    const rowError = errorSlot();
    const save = h('button', { type: 'button', 'data-action': 'save', ...EDIT }, isNew ? `Add ${kind.noun}` : 'Save');
    save.addEventListener('click', async () => {
      showError(rowError, '');
      try {
        const value = parseJSON(textarea.value, kind.noun);
        if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error(`A ${kind.noun} is a JSON object.`);
        if (typeof value.objectID !== 'string' || !value.objectID) throw new Error(`A ${kind.noun} needs an objectID (a string).`);
        if (!isNew && value.objectID !== item.objectID) throw new Error('The objectID cannot change here: add it as a new one below.');
        await api('PUT', indexPath(index, kind.id, value.objectID), value);
        status.textContent = `Saved ${kind.noun} ${value.objectID}.`;
        if (isNew) textarea.value = pretty(kind.template);
        load();
      } catch (failure) {
        showError(rowError, failure);
      }
    });
    const remove = !isNew && h('button', { type: 'button', class: 'danger', 'data-action': 'delete', ...EDIT }, 'Delete');
    if (remove) {
      remove.addEventListener('click', async () => {
        if (!await ask(`Delete the ${kind.noun} ${item.objectID}?`, { confirmLabel: `Delete ${kind.noun}` })) return;
        try {
          await api('DELETE', indexPath(index, kind.id, item.objectID));
          status.textContent = `Deleted ${kind.noun} ${item.objectID}.`;
          load();
        } catch (failure) {
          showError(rowError, failure);
        }
      });
    }
    return h('div', { class: 'json-editor' }, textarea, h('div', { class: 'actions' }, save, remove), rowError);
  }

  panel.append(h('h2', {}, kind.title), count, error, status, list,
    h('section', { class: 'card', ...EDIT },
      h('h3', {}, h('label', { for: `${kind.id}-new-json` }, `New ${kind.noun} (JSON)`)),
      editorFor(kind.template, `${kind.id}-new-json`, true)));
  load();
}
