// Compare: one query on two indices (one multi-search), their top 20 side by side, rows that
// moved or are on one side only marked.
import { api } from '/dashboard/assets/api.js';
import { errorSlot, fill, h, recordTitle, showError } from '/dashboard/assets/dom.js';

const HITS = 20;

export function renderCompare(view, context) {
  const params = new URLSearchParams(location.search);
  const names = h('datalist', { id: 'compare-index-names' });
  const nameInput = (side, label) => {
    const input = h('input', { type: 'text', id: `compare-${side}`, autocomplete: 'off', value: params.get(side) || '' });
    input.setAttribute('list', 'compare-index-names');
    return [h('label', { for: `compare-${side}` }, label), input];
  };
  const [leftLabel, left] = nameInput('left', 'Left index');
  const [rightLabel, right] = nameInput('right', 'Right index');
  const box = h('input', { type: 'search', id: 'compare-box', autocomplete: 'off', value: params.get('q') || '', placeholder: 'The same query on both' });
  const summary = h('p', { id: 'compare-summary', class: 'stats', 'aria-live': 'polite' });
  const error = errorSlot('compare-error');
  const columns = h('div', { class: 'compare-columns' });
  let sequence = 0;

  view.append(
    h('h1', { tabindex: -1 }, 'Compare two indices'),
    h('form', { class: 'compare-form', id: 'compare-form', onsubmit: (event) => { event.preventDefault(); run(); } },
      h('div', { class: 'field' }, leftLabel, left),
      h('div', { class: 'field' }, rightLabel, right),
      h('div', { class: 'field wide' }, h('label', { for: 'compare-box' }, 'Query'), box),
      names),
    summary, error, columns,
    h('p', { class: 'muted legend' },
      h('span', { class: 'swatch moved' }), ' at another position on the other side  ',
      h('span', { class: 'swatch only-left' }), ' only on the left  ',
      h('span', { class: 'swatch only-right' }), ' only on the right'));

  for (const input of [left, right]) input.addEventListener('change', run);
  box.addEventListener('input', run);

  async function run() {
    const [leftName, rightName] = [left.value.trim(), right.value.trim()];
    // The address keeps the comparison, to share or reload it.
    const query = new URLSearchParams({ left: leftName, right: rightName, q: box.value });
    history.replaceState(null, '', `/dashboard/compare?${query}`);
    if (!leftName || !rightName) {
      summary.textContent = 'Name two indices.';
      return;
    }
    const current = ++sequence;
    summary.dataset.state = 'loading'; // 'done' once the latest answer is shown
    const request = (indexName) => ({
      indexName, query: box.value, hitsPerPage: HITS, analytics: false, clickAnalytics: false,
      attributesToRetrieve: ['name', 'title', 'query'], attributesToHighlight: [], attributesToSnippet: [],
    });
    let answer;
    try {
      answer = await api('POST', '/1/indexes/*/queries', { requests: [request(leftName), request(rightName)], strategy: 'none' });
    } catch (failure) {
      if (current === sequence) {
        showError(error, failure);
        summary.dataset.state = 'done';
      }
      return;
    }
    if (current !== sequence) return; // a newer query was sent meanwhile
    showError(error, '');
    show(leftName, rightName, answer.results[0].hits || [], answer.results[1].hits || []);
    summary.dataset.state = 'done';
  }

  function show(leftName, rightName, leftHits, rightHits) {
    const leftPositions = new Map(leftHits.map((hit, i) => [hit.objectID, i]));
    const rightPositions = new Map(rightHits.map((hit, i) => [hit.objectID, i]));
    const rows = Math.max(leftHits.length, rightHits.length);
    let differ = 0;
    for (let i = 0; i < rows; i += 1) if (leftHits[i]?.objectID !== rightHits[i]?.objectID) differ += 1;
    summary.textContent = rows ? `${differ} of ${rows} differ` : 'No hits on either side.';
    summary.dataset.differ = String(differ);

    const column = (side, name, hits, otherPositions) => h('section', { class: 'compare-column', 'aria-label': `${side}: ${name}` },
      h('h2', {}, name),
      h('ol', { id: `compare-${side}-list`, class: 'compare-list' }, hits.map((hit, i) => {
        const other = otherPositions.get(hit.objectID);
        let mark = null;
        let note = '';
        if (other === undefined) {
          mark = side === 'left' ? 'only-left' : 'only-right';
          note = 'only here';
        } else if (other !== i) {
          mark = 'moved';
          note = `${side === 'left' ? 'right' : 'left'} #${other + 1}`; // where the other side has it
        }
        return h('li', { class: mark, 'data-test': 'compare-row', 'data-object-id': hit.objectID },
          h('span', { class: 'position' }, String(i + 1)),
          h('code', {}, hit.objectID),
          h('span', { class: 'title' }, recordTitle(hit)),
          note && h('span', { class: 'delta' }, note));
      })));
    fill(columns, column('left', leftName, leftHits, rightPositions), column('right', rightName, rightHits, leftPositions));
  }

  // Index names to pick from: listed with the admin key; a search key types them.
  if (context.admin) {
    api('GET', '/1/indexes').then((answer) => {
      if (!left.isConnected) return; // the person has moved on to another view
      const items = answer.items || [];
      fill(names, items.map((item) => h('option', { value: item.name })));
      if (!left.value && items[0]) left.value = items[0].name;
      if (!right.value && items[1]) right.value = items[1].name;
      run();
    }, (failure) => showError(error, failure));
  } else if (left.value && right.value) {
    run();
  }
}
