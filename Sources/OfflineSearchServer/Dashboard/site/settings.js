// Settings: GET /1/indexes/NAME/settings (every setting, Algolia's defaults filled in) as a form
// per section; saving sends only the settings changed, with PUT.
import { api, indexPath } from '/dashboard/assets/api.js';
import { EDIT, errorSlot, h, showError, statusSlot } from '/dashboard/assets/dom.js';

// Per section: its id, title and fields. Field kinds:
//   list   a textarea, one value a line (left empty, a null setting stays null)
//   words  a text input, values separated by commas
//   number, text
//   choice a select of `options` (the strings true/false become booleans)
//   flag   true, false, or a list of language codes (ignorePlurals, removeStopWords)
const SECTIONS = [
  ['searchable', 'Searchable attributes', [
    { key: 'searchableAttributes', kind: 'list', fallback: 'every attribute', hint: 'The most important first; unordered(attribute) ignores word positions.' },
  ]],
  ['faceting', 'Faceting', [
    { key: 'attributesForFaceting', kind: 'list', fallback: 'none', hint: 'attribute, searchable(attribute) or filterOnly(attribute).' },
  ]],
  ['ranking', 'Ranking', [
    { key: 'ranking', kind: 'list', fallback: 'typo, geo, words, filters, proximity, attribute, exact, custom' },
    { key: 'customRanking', kind: 'list', fallback: 'none', hint: 'desc(attribute) or asc(attribute): the tie-breakers.' },
  ]],
  ['typos', 'Typo tolerance', [
    { key: 'typoTolerance', kind: 'choice', options: ['true', 'false', 'min', 'strict'], fallback: 'true' },
    { key: 'minWordSizefor1Typo', kind: 'number', fallback: 4 },
    { key: 'minWordSizefor2Typos', kind: 'number', fallback: 8 },
  ]],
  ['highlighting', 'Highlighting', [
    { key: 'attributesToHighlight', kind: 'list', fallback: 'every searchable attribute' },
    { key: 'highlightPreTag', kind: 'text', fallback: '<em>' },
    { key: 'highlightPostTag', kind: 'text', fallback: '</em>' },
  ]],
  ['pagination', 'Pagination', [
    { key: 'hitsPerPage', kind: 'number', fallback: 20 },
    { key: 'paginationLimitedTo', kind: 'number', fallback: 1000 },
  ]],
  ['languages', 'Languages', [
    { key: 'ignorePlurals', kind: 'flag', fallback: 'false', hint: 'true, false, or language codes (en, fr).' },
    { key: 'removeStopWords', kind: 'flag', fallback: 'false', hint: 'true, false, or language codes.' },
    { key: 'queryLanguages', kind: 'words', fallback: 'none', hint: 'Language codes, separated by commas.' },
    { key: 'indexLanguages', kind: 'words', fallback: 'none', hint: 'Language codes, separated by commas.' },
  ]],
];

const splitWords = (text) => text.split(',').map((word) => word.trim()).filter(Boolean);

/** The text a field shows for a setting's value. */
function display(field, value) {
  if (value === undefined || value === null) return '';
  switch (field.kind) {
    case 'list': return Array.isArray(value) ? value.join('\n') : String(value);
    case 'words':
    case 'flag': return Array.isArray(value) ? value.join(', ') : String(value);
    default: return String(value);
  }
}

/** The setting's value from the field's text; `original` decides what "empty" means. */
function parse(field, text, original) {
  const trimmed = text.trim();
  switch (field.kind) {
    case 'list': {
      const lines = text.split('\n').map((line) => line.trim()).filter(Boolean);
      return lines.length || (original !== null && original !== undefined) ? lines : original;
    }
    case 'words': return trimmed || original !== undefined ? splitWords(trimmed) : original;
    case 'number': {
      if (!trimmed) return original === undefined ? undefined : null; // null: back to the default
      const number = Number(trimmed);
      return Number.isInteger(number) ? number : trimmed; // the server says what is wrong
    }
    case 'choice':
    case 'flag':
      if (trimmed === 'true') return true;
      if (trimmed === 'false') return false;
      if (!trimmed) return field.kind === 'flag' ? false : trimmed;
      return field.kind === 'flag' ? splitWords(trimmed) : trimmed;
    default: return text;
  }
}

export function renderSettings(panel, index) {
  const error = errorSlot('settings-error');
  const form = h('form', { id: 'settings-form', class: 'settings', novalidate: true, ...EDIT });
  panel.append(h('h2', {}, 'Settings'), error, form);

  async function load(saved) {
    try {
      build(await api('GET', indexPath(index, 'settings')), saved);
    } catch (failure) {
      showError(error, failure);
    }
  }

  /** The form for `settings`; `saved`, the keys just saved, is said beside the Save button. */
  function build(settings, saved) {
    const inputs = []; // [field, control, the error element of its section]
    const status = statusSlot('settings-status');
    const formError = errorSlot('settings-form-error');
    form.replaceChildren(formError);
    for (const [sectionId, title, fields] of SECTIONS) {
      const sectionError = errorSlot(`settings-${sectionId}-error`);
      const fieldset = h('fieldset', { class: 'settings-section', id: `section-${sectionId}` }, h('legend', {}, title));
      for (const field of fields) {
        const id = `setting-${field.key}`;
        const value = display(field, settings[field.key]);
        const fallback = `Default: ${field.fallback}`;
        const control = field.kind === 'list'
          ? h('textarea', { id, rows: Math.min(Math.max(value.split('\n').length + 1, 3), 10), spellcheck: false, placeholder: fallback })
          : field.kind === 'choice'
            ? h('select', { id }, field.options.map((option) => h('option', { value: option }, option)))
            : h('input', { id, type: field.kind === 'number' ? 'number' : 'text', placeholder: fallback, autocomplete: 'off' });
        control.value = value;
        control.setAttribute('aria-describedby', `${id}-hint`);
        control.setAttribute('data-test', 'edit-control');
        inputs.push([field, control, sectionError]);
        fieldset.append(h('div', { class: 'field' },
          h('label', { for: id }, h('code', {}, field.key)), control,
          h('small', { id: `${id}-hint`, class: 'hint' }, `${field.hint ? field.hint + ' ' : ''}${fallback}.`)));
      }
      fieldset.append(sectionError);
      form.append(fieldset);
    }
    const save = h('button', { type: 'submit', id: 'settings-save', ...EDIT }, 'Save changes');
    const undo = h('button', { type: 'button', id: 'settings-reset', class: 'quiet', ...EDIT, onclick: () => build(settings) }, 'Undo changes');
    form.append(h('div', { class: 'actions sticky-actions' }, save, undo, status));
    if (saved) status.textContent = `Saved: ${saved.join(', ')}.`;

    form.onsubmit = async (event) => {
      event.preventDefault();
      for (const slot of [formError, ...inputs.map(([, , slot]) => slot)]) showError(slot, '');
      status.textContent = '';
      const changed = {};
      for (const [field, control] of inputs) {
        const value = parse(field, control.value, settings[field.key]);
        if (value !== undefined && JSON.stringify(value) !== JSON.stringify(settings[field.key] ?? null)) changed[field.key] = value;
      }
      const keys = Object.keys(changed);
      if (!keys.length) {
        status.textContent = 'Nothing changed.';
        return;
      }
      save.disabled = true;
      try {
        await api('PUT', indexPath(index, 'settings'), changed);
        await load(keys);
      } catch (failure) {
        save.disabled = false;
        // "hitsPerPage: expected …": the message goes beside the section of the setting it names.
        const named = inputs.find(([field]) => failure.message.startsWith(`${field.key}:`))
          || inputs.find(([field]) => keys.includes(field.key) && failure.message.includes(field.key));
        const slot = named ? named[2] : formError;
        showError(slot, failure);
        slot.scrollIntoView({ block: 'nearest' });
      }
    };
  }

  load();
}
