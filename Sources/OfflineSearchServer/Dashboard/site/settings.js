// Settings: GET /1/indexes/NAME/settings (every setting, Algolia's defaults filled in) as a form
// per section; saving sends only the settings changed, with PUT.
import { api, indexPath } from '/dashboard/assets/api.js';
import { EDIT, errorSlot, h, showError, statusSlot } from '/dashboard/assets/dom.js';

// Field kinds:
//   list   a textarea, one value a line (an empty one keeps a null default null)
//   words  a text input, values separated by commas
//   number, text
//   choice a select of `options` (the strings true/false become booleans)
//   flag   true, false, or a list of language codes (ignorePlurals, removeStopWords)
const SECTIONS = [
  { id: 'searchable', title: 'Searchable attributes', fields: [
    { key: 'searchableAttributes', kind: 'list', fallback: 'none: every attribute, in the records\' order', hint: 'One a line, the most important first; unordered(attribute) ignores the position in it; "title,subtitle" ranks both the same.' },
  ] },
  { id: 'faceting', title: 'Faceting', fields: [
    { key: 'attributesForFaceting', kind: 'list', fallback: 'none', hint: 'One a line: attribute, searchable(attribute), filterOnly(attribute), afterDistinct(attribute).' },
  ] },
  { id: 'ranking', title: 'Ranking', fields: [
    { key: 'ranking', kind: 'list', fallback: 'typo, geo, words, filters, proximity, attribute, exact, custom', hint: 'The criteria in order, one a line; asc(attribute) or desc(attribute) sorts first.' },
    { key: 'customRanking', kind: 'list', fallback: 'none', hint: 'desc(attribute) or asc(attribute), one a line: the tie-breakers of the custom criterion.' },
  ] },
  { id: 'typos', title: 'Typo tolerance', fields: [
    { key: 'typoTolerance', kind: 'choice', options: ['true', 'false', 'min', 'strict'], fallback: 'true' },
    { key: 'minWordSizefor1Typo', kind: 'number', fallback: 4, hint: 'The shortest word that may have one typo.' },
    { key: 'minWordSizefor2Typos', kind: 'number', fallback: 8, hint: 'The shortest word that may have two typos.' },
  ] },
  { id: 'highlighting', title: 'Highlighting', fields: [
    { key: 'attributesToHighlight', kind: 'list', fallback: 'null: every searchable attribute', hint: 'One a line.' },
    { key: 'highlightPreTag', kind: 'text', fallback: '<em>' },
    { key: 'highlightPostTag', kind: 'text', fallback: '</em>' },
  ] },
  { id: 'pagination', title: 'Pagination', fields: [
    { key: 'hitsPerPage', kind: 'number', fallback: 20, min: 1, max: 1000 },
    { key: 'paginationLimitedTo', kind: 'number', fallback: 1000, min: 1, hint: 'The most hits a search can page through.' },
  ] },
  { id: 'languages', title: 'Languages', fields: [
    { key: 'ignorePlurals', kind: 'flag', fallback: 'false', hint: 'true, false, or language codes separated by commas (en, fr).' },
    { key: 'removeStopWords', kind: 'flag', fallback: 'false', hint: 'true, false, or language codes separated by commas.' },
    { key: 'queryLanguages', kind: 'words', fallback: 'none', hint: 'Language codes separated by commas: the languages of plurals and stop words.' },
    { key: 'indexLanguages', kind: 'words', fallback: 'none', hint: 'Language codes separated by commas: the languages of the records.' },
  ] },
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
      if (trimmed === 'false' || !trimmed) return field.kind === 'flag' ? false : trimmed;
      return field.kind === 'flag' ? splitWords(trimmed) : trimmed;
    default: return text;
  }
}

export function renderSettings(panel, index) {
  const error = errorSlot('settings-error');
  panel.append(h('h2', {}, 'Settings'), error);
  const form = h('form', { id: 'settings-form', class: 'settings', novalidate: true, ...EDIT });
  panel.append(form);

  async function load() {
    let settings;
    try {
      settings = await api('GET', indexPath(index, 'settings'));
    } catch (failure) {
      showError(error, failure);
      return;
    }
    build(settings);
  }

  function build(settings) {
    const inputs = new Map(); // key → [field, element]
    const sectionErrors = new Map(); // key → the error element of its section
    const status = statusSlot('settings-status');
    const formError = errorSlot('settings-form-error');
    form.replaceChildren(formError);
    for (const section of SECTIONS) {
      const sectionError = errorSlot(`settings-${section.id}-error`);
      const fieldset = h('fieldset', { class: 'settings-section', id: `section-${section.id}` }, h('legend', {}, section.title));
      for (const field of section.fields) {
        const id = `setting-${field.key}`;
        const value = display(field, settings[field.key]);
        const defaultText = `Default: ${field.fallback}`;
        let control;
        if (field.kind === 'list') {
          control = h('textarea', { id, rows: Math.min(Math.max(value.split('\n').length + 1, 3), 10), spellcheck: false, placeholder: defaultText });
        } else if (field.kind === 'choice') {
          control = h('select', { id }, field.options.map((option) => h('option', { value: option }, option)));
        } else {
          control = h('input', { id, type: field.kind === 'number' ? 'number' : 'text', placeholder: defaultText, autocomplete: 'off', min: field.min, max: field.max });
        }
        control.value = value;
        control.setAttribute('aria-describedby', `${id}-hint`);
        control.setAttribute('data-test', 'edit-control');
        inputs.set(field.key, [field, control]);
        sectionErrors.set(field.key, sectionError);
        fieldset.append(h('div', { class: 'field' },
          h('label', { for: id }, h('code', {}, field.key)), control,
          h('small', { id: `${id}-hint`, class: 'hint' }, field.hint ? `${field.hint} ${defaultText}.` : `${defaultText}.`)));
      }
      fieldset.append(sectionError);
      form.append(fieldset);
    }
    const save = h('button', { type: 'submit', id: 'settings-save', ...EDIT }, 'Save changes');
    const reset = h('button', { type: 'button', id: 'settings-reset', class: 'quiet', ...EDIT, onclick: () => build(settings) }, 'Undo changes');
    form.append(h('div', { class: 'actions sticky-actions' }, save, reset, status));

    form.onsubmit = async (event) => {
      event.preventDefault();
      for (const slot of [formError, ...sectionErrors.values()]) showError(slot, '');
      status.textContent = '';
      const changed = {};
      for (const [key, [field, control]] of inputs) {
        const value = parse(field, control.value, settings[key]);
        if (value !== undefined && JSON.stringify(value) !== JSON.stringify(settings[key] ?? null)) changed[key] = value;
      }
      const keys = Object.keys(changed);
      if (!keys.length) {
        status.textContent = 'Nothing changed.';
        return;
      }
      save.disabled = true;
      try {
        await api('PUT', indexPath(index, 'settings'), changed);
        await load();
        document.getElementById('settings-status').textContent = `Saved: ${keys.join(', ')}.`;
      } catch (failure) {
        save.disabled = false;
        // "hitsPerPage: expected …": the message goes beside the section of that setting.
        const key = /^\s*([A-Za-z0-9]+)\b/.exec(failure.message || '')?.[1];
        const slot = sectionErrors.get(key) || sectionErrors.get(keys.find((k) => failure.message.includes(k))) || formError;
        showError(slot, failure);
        slot.closest('fieldset')?.scrollIntoView({ block: 'nearest' });
      }
    };
  }

  load();
}
