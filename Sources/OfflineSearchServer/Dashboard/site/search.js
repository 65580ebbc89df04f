// The search preview: search as you type, facets as checkboxes, paging, each hit's ranking info,
// and the raw request and response.
import { api, indexPath } from '/dashboard/assets/api.js';
import { errorSlot, fill, formatNumber, h, pretty, showError, titleAttribute } from '/dashboard/assets/dom.js';

const HITS_PER_PAGE = 10;
const FACET_VALUES_SHOWN = 8; // per attribute, until "Show all"

// Algolia's ranking criteria in its order: the _rankingInfo field each is decided on, and what it
// means. Geo shows only for searches around a location, promoted only for hits a Rule pinned.
const CRITERIA = [
  ['typo', 'nbTypos', 'typos in the matched words (fewer first)'],
  ['words', 'words', 'query words matched (more first)'],
  ['filters', 'filters', 'optional filters matched (more first)'],
  ['proximity', 'proximityDistance', 'distance between matched words (closer first)'],
  ['attribute', 'firstMatchedWord', 'attribute matched, then word position (earlier first)'],
  ['exact', 'nbExactWords', 'words matched exactly (more first)'],
  ['custom', 'userScore', 'rank by customRanking (higher first)'],
  ['geo', 'geoDistance', 'distance in meters (nearer first)'],
];
const FIELD = Object.fromEntries(CRITERIA.map(([name, field]) => [name, field]));
const DEFAULT_RANKING = ['typo', 'geo', 'words', 'filters', 'proximity', 'attribute', 'exact', 'custom'];

/** A facet filter: a value's leading `-` (a negation) is escaped. */
const facetFilter = (attribute, value) => `${attribute}:${value.startsWith('-') ? '\\' : ''}${value}`;

/**
 * `value` with its parts between `pre` and `post` (the highlight tags) as <mark> elements and
 * the rest as text nodes: the record's text is never parsed as HTML.
 */
export function highlighted(value, pre, post) {
  const fragment = document.createDocumentFragment();
  let rest = String(value ?? '');
  while (rest) {
    const start = pre && post ? rest.indexOf(pre) : -1;
    if (start < 0) {
      fragment.append(rest);
      break;
    }
    fragment.append(rest.slice(0, start));
    rest = rest.slice(start + pre.length);
    const end = rest.indexOf(post) < 0 ? rest.length : rest.indexOf(post);
    fragment.append(h('mark', {}, rest.slice(0, end)));
    rest = rest.slice(end + post.length);
  }
  return fragment;
}

export function renderSearch(panel, index, context) {
  const state = {
    query: '',
    page: 0,
    refinements: new Map(), // attribute → Set of values (ORed); attributes ANDed
    expanded: new Set(), // facet attributes showing all their values
    sequence: 0, // the latest request's number: older answers are dropped
    settings: {}, // highlight tags, ranking, searchable attributes (readable with the admin key)
  };

  const box = h('input', { type: 'search', id: 'search-box', autocomplete: 'off', placeholder: 'Type to search' });
  const stats = h('p', { id: 'search-stats', class: 'stats', 'aria-live': 'polite' });
  const error = errorSlot('search-error');
  const facets = h('div', { id: 'facets' });
  const hits = h('ol', { id: 'hits', class: 'hits' });
  const turn = (step) => () => { state.page += step; search(); };
  const previous = h('button', { type: 'button', id: 'prev-page', disabled: true, onclick: turn(-1) }, '← Previous');
  const next = h('button', { type: 'button', id: 'next-page', disabled: true, onclick: turn(1) }, 'Next →');
  const pageInfo = h('span', { id: 'page-info' });
  const requestJSON = h('pre', { id: 'raw-request-json' });
  const responseJSON = h('pre', { id: 'raw-response-json' });

  panel.append(
    h('form', { class: 'search-bar', role: 'search', onsubmit: (event) => event.preventDefault() },
      h('label', { for: 'search-box' }, `Search ${index}`), box),
    stats, error,
    h('div', { class: 'search-layout' },
      // Folded at first on a narrow screen, where it would push the hits down.
      h('details', { class: 'facets', open: !matchMedia('(max-width: 760px)').matches }, h('summary', {}, 'Facets'), facets),
      h('div', {}, hits, h('nav', { class: 'pager', 'aria-label': 'Pages' }, previous, pageInfo, next))),
    h('details', { id: 'raw-request', class: 'raw' }, h('summary', {}, 'Request JSON'), requestJSON),
    h('details', { id: 'raw-response', class: 'raw' }, h('summary', {}, 'Response JSON'), responseJSON));

  box.addEventListener('input', () => {
    state.query = box.value;
    state.page = 0;
    search();
  });

  /** The refinements as facetFilters: per attribute (ANDed) an array of its values (ORed); not `except`'s. */
  const facetFilters = (except) => [...state.refinements]
    .filter(([attribute]) => attribute !== except)
    .map(([attribute, values]) => [...values].map((value) => facetFilter(attribute, value)));

  async function search() {
    const sequence = ++state.sequence;
    stats.dataset.state = 'loading'; // 'done' once the latest answer is shown (the tests wait on it)
    const path = indexPath(index, 'query');
    const body = {
      query: state.query, page: state.page, hitsPerPage: HITS_PER_PAGE, facets: ['*'], getRankingInfo: true,
      facetFilters: facetFilters(), clickAnalytics: false, analytics: false,
    };
    requestJSON.textContent = `POST ${path}\n${pretty(body)}`;
    // A refined attribute's values are ORed, so its counts come from the same search without its
    // own filter (InstantSearch's disjunctive facets): its other values stay there to check.
    const disjunctive = [...state.refinements.keys()].map((attribute) => api('POST', path, {
      query: state.query, hitsPerPage: 0, facets: [attribute], facetFilters: facetFilters(attribute), clickAnalytics: false, analytics: false,
    }).then((answer) => [attribute, answer.facets?.[attribute]], () => [attribute, null]));
    let answer;
    let counts;
    try {
      [answer, ...counts] = await Promise.all([api('POST', path, body), ...disjunctive]);
    } catch (failure) {
      answer = failure;
    }
    if (sequence !== state.sequence) return; // a newer search was sent meanwhile
    if (answer instanceof Error) {
      showError(error, answer);
    } else {
      showError(error, '');
      const facetCounts = { ...answer.facets };
      for (const [attribute, values] of counts) if (values) facetCounts[attribute] = values;
      show(answer, facetCounts);
    }
    stats.dataset.state = 'done';
  }

  function show(answer, facetCounts) {
    responseJSON.textContent = pretty(answer);
    fill(stats,
      h('strong', { id: 'nb-hits', 'data-value': answer.nbHits }, formatNumber(answer.nbHits)),
      answer.nbHits === 1 ? ' hit in ' : ' hits in ', h('span', { id: 'processing-time' }, formatNumber(answer.processingTimeMS)), ' ms');
    const page = answer.page || 0;
    const pages = Math.max(answer.nbPages || 0, 1);
    pageInfo.textContent = `Page ${page + 1} of ${formatNumber(pages)}`;
    previous.disabled = page === 0;
    next.disabled = page + 1 >= pages;
    const first = page * (answer.hitsPerPage || HITS_PER_PAGE);
    fill(hits, answer.hits?.length
      ? answer.hits.map((hit, i) => renderHit(hit, first + i, answer.hits[i - 1]))
      : h('li', { class: 'muted' }, 'No hits.'));
    renderFacets(facetCounts);
  }

  function renderFacets(answerFacets) {
    // Keyboard focus survives the redraw: the same control is focused again.
    const focused = facets.contains(document.activeElement) ? document.activeElement.dataset : null;
    const attributes = [...new Set([...Object.keys(answerFacets), ...state.refinements.keys()])];
    fill(facets, attributes.length ? attributes.map((attribute, a) => {
      const counts = answerFacets[attribute] || {};
      const refined = state.refinements.get(attribute) || new Set();
      const all = [...new Set([...Object.keys(counts), ...refined])]; // refined values stay, to uncheck
      const expanded = state.expanded.has(attribute);
      const values = expanded ? all : all.filter((value, i) => i < FACET_VALUES_SHOWN || refined.has(value));
      const more = all.length > FACET_VALUES_SHOWN && h('button', {
        type: 'button', class: 'link-button', 'data-more': attribute, 'aria-expanded': String(expanded),
        onclick: () => {
          state.expanded[expanded ? 'delete' : 'add'](attribute);
          renderFacets(answerFacets);
        },
      }, expanded ? 'Show fewer' : `Show all ${all.length}`);
      return h('fieldset', { class: 'facet', 'data-facet': attribute },
        h('legend', {}, attribute),
        h('ul', {}, values.map((value, v) => h('li', {},
          h('input', {
            type: 'checkbox', id: `facet-${a}-${v}`, checked: refined.has(value), 'data-test': 'facet-value',
            'data-facet': attribute, 'data-value': value, onchange: (event) => refine(attribute, value, event.target.checked),
          }),
          h('label', { for: `facet-${a}-${v}` }, value, ' ', h('span', { class: 'count' }, formatNumber(counts[value] ?? 0)))))),
        more);
    }) : h('p', { class: 'muted' }, 'No facets: set attributesForFaceting in Settings.'));
    if (focused) {
      const selector = focused.more !== undefined
        ? `[data-more="${CSS.escape(focused.more)}"]`
        : `input[data-facet="${CSS.escape(focused.facet || '')}"][data-value="${CSS.escape(focused.value || '')}"]`;
      facets.querySelector(selector)?.focus();
    }
  }

  function refine(attribute, value, on) {
    const values = state.refinements.get(attribute) || new Set();
    values[on ? 'add' : 'delete'](value);
    if (values.size) state.refinements.set(attribute, values);
    else state.refinements.delete(attribute);
    state.page = 0;
    search();
  }

  function renderHit(hit, position, previousHit) {
    const mark = (text) => highlighted(text, state.settings.highlightPreTag ?? '<em>', state.settings.highlightPostTag ?? '</em>');
    const highlights = hit._highlightResult || {};
    const titleKey = titleAttribute(hit);
    const titleHighlight = highlights[titleKey]?.value;
    const title = !titleKey ? hit.objectID : typeof titleHighlight === 'string' ? mark(titleHighlight) : hit[titleKey];
    // Every other highlighted attribute (its snippet if it has one): strings and lists of strings.
    const rows = [];
    for (const [attribute, result] of Object.entries(highlights)) {
      const parts = [(hit._snippetResult || {})[attribute] || result].flat();
      if (attribute === titleKey || !parts.every((part) => typeof part?.value === 'string')) continue;
      rows.push(h('dt', {}, attribute), h('dd', { 'data-test': 'hit-attr', 'data-attr': attribute },
        parts.map((part, i) => [i ? ', ' : '', mark(part.value)])));
    }
    const ranking = h('div', { id: `ranking-${position}`, class: 'ranking', hidden: true });
    const toggle = h('button', { type: 'button', class: 'small', 'data-test': 'ranking-toggle', 'aria-expanded': 'false', 'aria-controls': ranking.id }, 'Ranking');
    toggle.addEventListener('click', () => {
      const open = toggle.getAttribute('aria-expanded') !== 'true';
      toggle.setAttribute('aria-expanded', String(open));
      if (open && !ranking.firstChild) ranking.append(...rankingTable(hit, position, previousHit));
      ranking.hidden = !open;
    });
    const editURL = `/dashboard/indexes/${encodeURIComponent(index)}/records?objectID=${encodeURIComponent(hit.objectID)}`;
    return h('li', { class: 'hit', 'data-test': 'hit', 'data-object-id': hit.objectID },
      h('div', { class: 'hit-head' },
        h('span', { class: 'position' }, `#${position + 1}`),
        h('strong', { class: 'hit-title' }, title),
        h('code', { class: 'object-id' }, hit.objectID),
        context.admin && h('a', { class: 'hit-edit', 'data-test': 'edit-control', href: editURL }, 'Edit'),
        toggle),
      rows.length > 0 && h('dl', { class: 'hit-attrs' }, rows),
      ranking);
  }

  /**
   * The hit's _rankingInfo as a table of criteria. The first criterion of the index's ranking on
   * which it differs from the hit above is the one that placed it there: that row is marked.
   */
  function rankingTable(hit, position, previousHit) {
    const info = hit._rankingInfo || {};
    const above = previousHit?._rankingInfo;
    const geo = info.matchedGeoLocation !== undefined || info.geoDistance > 0 || above?.geoDistance > 0;
    const shown = (name) => name !== 'geo' || geo;
    let deciding = null;
    if (info.promoted) deciding = 'promoted';
    else if (above && !above.promoted) {
      deciding = (state.settings.ranking || DEFAULT_RANKING)
        .find((name) => FIELD[name] && shown(name) && info[FIELD[name]] !== above[FIELD[name]]) || null;
    }
    const rows = CRITERIA.filter(([name]) => shown(name)).map(([name, field, meaning]) => [name, field, info[field], explain(name, info[field], hit) || meaning]);
    if (info.promoted !== undefined) rows.push(['promoted', 'promoted', info.promoted, 'pinned here by a Rule']);
    let summary = `Tied with #${position} on every criterion.`;
    if (deciding === 'promoted') summary = 'Promoted by a Rule, before the ranking criteria apply.';
    else if (!above) summary = position === 0 ? 'The first hit.' : 'The first hit of this page.';
    else if (deciding) summary = `Placed after #${position} by the “${deciding}” criterion (marked).`;
    return [
      h('p', { class: 'ranking-summary' }, summary),
      h('table', { class: 'data compact', 'data-test': 'ranking-table' },
        h('caption', { class: 'visually-hidden' }, `Ranking of ${hit.objectID}`),
        h('thead', {}, h('tr', {}, ['criterion', 'field', 'value', 'meaning'].map((name) => h('th', { scope: 'col' }, name)))),
        h('tbody', {}, rows.map(([name, field, value, meaning]) => h('tr', { class: name === deciding ? 'deciding' : null, 'data-criterion': name },
          h('th', { scope: 'row' }, name), h('td', {}, h('code', {}, field)),
          h('td', { class: 'num' }, value === undefined ? '—' : String(value)), h('td', { class: 'muted' }, meaning))))),
    ];
  }

  /** Some criteria read with the index's settings (when the key may read them), else null. */
  function explain(name, value, hit) {
    const { searchableAttributes, customRanking } = state.settings;
    if (name === 'attribute' && typeof value === 'number') {
      const attribute = searchableAttributes?.[Math.floor(value / 1000)]?.replace(/^unordered\((.*)\)$/, '$1');
      return `${attribute ? `“${attribute}”` : `searchable attribute ${Math.floor(value / 1000) + 1}`}, word ${(value % 1000) + 1}`;
    }
    if (name === 'custom' && customRanking?.length) {
      return customRanking.map((entry) => {
        const path = entry.replace(/^(asc|desc)\((.*)\)$/, '$2').split('.');
        return `${entry} = ${JSON.stringify(path.reduce((object, key) => object?.[key], hit) ?? null)}`;
      }).join(', ');
    }
    return null;
  }

  // The settings give the highlight tags and the ranking; a search key cannot read them, and
  // Algolia's defaults then apply.
  const settings = context.admin ? api('GET', indexPath(index, 'settings')).catch(() => ({})) : Promise.resolve({});
  settings.then((value) => {
    state.settings = value;
    search();
  });
}
