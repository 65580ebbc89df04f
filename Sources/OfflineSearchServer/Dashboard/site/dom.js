// Small DOM helpers. Record data only ever becomes text nodes or attribute values: no innerHTML.

/** Attributes of every control that changes data (none is built in read-only mode). */
export const EDIT = { 'data-test': 'edit-control' };

/**
 * Builds an element: `h('button', { type: 'button', class: 'danger', onclick: fn }, 'Delete')`.
 * `on…` props become listeners, `class` the class name, properties the element has (value,
 * checked, hidden, disabled…) are set as properties, anything else as an attribute. Children:
 * strings, numbers, nodes, arrays of them; null, undefined and false are skipped.
 */
export function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props || {})) {
    if (value === undefined || value === null || (value === false && !(name in element))) continue;
    if (name.startsWith('on') && typeof value === 'function') {
      element.addEventListener(name.slice(2), value);
    } else if (name === 'class') {
      element.className = value;
    } else if (name in element && !name.includes('-') && name !== 'list' && name !== 'form') {
      element[name] = value;
    } else {
      element.setAttribute(name, value === true ? '' : String(value));
    }
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(element, child);
    else element.append(child instanceof Node ? child : String(child));
  }
}

/** Replaces the children of `element` with `children`. */
export function fill(element, ...children) {
  element.replaceChildren();
  append(element, children);
  return element;
}

/** An element for an error message, next to what failed (`role=alert` reads it out). */
export function errorSlot(id) {
  return h('p', { class: 'field-error', role: 'alert', id, hidden: true });
}

/** Shows an error (an ApiError, an Error or a string) in `slot`; an empty value hides it. */
export function showError(slot, error) {
  const message = error ? (typeof error === 'string' ? error : error.message || String(error)) : '';
  slot.textContent = message;
  slot.hidden = !message;
}

/** An element for short news of what happened ("Saved"). */
export function statusSlot(id) {
  return h('p', { class: 'status', role: 'status', id });
}

/** `3,000`; an absent number as an em dash. */
export function formatNumber(value) {
  return typeof value === 'number' ? value.toLocaleString('en-US') : '—';
}

export function formatBytes(bytes) {
  if (typeof bytes !== 'number') return '—';
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit ? value.toFixed(1) : value} ${units[unit]}`;
}

/** `2026-11-27 16:45` in local time, from an ISO date. */
export function formatDate(iso) {
  const date = new Date(iso);
  if (!iso || Number.isNaN(date.getTime())) return '—';
  const pad = (n) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export const pretty = (value) => JSON.stringify(value, null, 2);

/** The attribute a record's title comes from: the first of name, title, query; null for none. */
export function titleAttribute(record) {
  return ['name', 'title', 'query'].find((key) => typeof record[key] === 'string' && record[key]) || null;
}

/** A record's title: its name, title or query, else its objectID. */
export function recordTitle(record) {
  const key = titleAttribute(record);
  return String(key ? record[key] : record.objectID ?? '');
}

/** Parses JSON typed by a person; throws an Error that says where it is wrong. */
export function parseJSON(text, what = 'JSON') {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`This ${what} is not valid JSON: ${error.message}`);
  }
}

/**
 * Asks in the page's <dialog>. Resolves to true (confirmed) or false; with `input`
 * ({ label, value }), to the text typed, or null when cancelled.
 */
export function ask(message, { confirmLabel = 'Confirm', danger = true, input = null } = {}) {
  const dialog = document.getElementById('confirm-dialog');
  const field = document.getElementById('confirm-input');
  const fieldRow = document.getElementById('confirm-input-row');
  const ok = document.getElementById('confirm-ok');
  document.getElementById('confirm-message').textContent = message;
  ok.textContent = confirmLabel;
  ok.classList.toggle('danger', danger);
  fieldRow.hidden = !input;
  field.required = Boolean(input);
  if (input) {
    document.getElementById('confirm-input-label').textContent = input.label;
    field.value = input.value || '';
  }
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => {
      const confirmed = dialog.returnValue === 'ok';
      if (input) resolve(confirmed ? field.value.trim() : null);
      else resolve(confirmed);
    }, { once: true });
    dialog.returnValue = '';
    dialog.showModal();
    (input ? field : document.getElementById('confirm-cancel')).focus(); // Enter alone does not destroy
  });
}
