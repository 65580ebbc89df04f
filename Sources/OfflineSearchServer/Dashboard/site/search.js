// The search preview: search as you type, facets as checkboxes, paging, ranking info per hit, and
// the raw request and response.
import { api, indexPath } from '/dashboard/assets/api.js';
import { errorSlot, fill, formatNumber, h, pretty, showError, titleAttribute } from '/dashboard/assets/dom.js';

const HITS_PER_PAGE = 10;
const FACET_VALUES_SHOWN = 8; // per attribute, until "Show all"

// Algolia's ranking criteria, each with the _rankingInfo field it is decided on and what the
// number means. Geo and promoted show only when the hit has them.
const CRITERIA = {
  typo: { field: 'nbTypos', label: 'typos', hint: 'typos in the matched words (fewer first)' },
  words: { field: 'words', label: 'words', hint: 'query words matched (more first)' },
  filters: { field: 'filters', label: 'filters', hint: 'optional filters matched (more first)' },
  proximity: { field: 'proximityDistance', label: 'proximity', hint: 'distance between matched words (closer first)' },
  attribute: { field: 'firstMatchedWord', label: 'attribute', hint: 'best attribute matched, then the word\'s position in it' },
  exact: { field: 'nbExactWords', label: 'exact', hint: 'words matched exactly (more first)' },
  custom: { field: 'userScore', label: 'custom', hint: 'the place of its customRanking values (higher first)' },
  geo: { field: 'geoDistance', label: 'geo', hint: 'distance in meters (nearer first)' },
};
const SHOWN_ORDER = ['typo', 'words', 'filters', 'proximity', 'attribute', 'exact', 'custom', 'geo'];
const DEFAULT_RANKING = ['typo', 'geo', 'words', 'filters', 'proximity', 'attribute', 'exact', 'custom'];

/** A facet filter value: a leading `-` would negate it, so it is escaped. */
const facetFilter = (attribute, value) => `${attribute}:${value.startsWith('-') ? '\\' + value : value}`;

/**
 * `value` with its highlighted parts (between `pre` and `post`, Algolia's highlight tags) as
 * <mark> elements and the rest as text nodes: the record's text is never parsed as HTML.
 */
export function highlighted(value, pre, post) {
  const fragment = document.createDocumentFragment();
  let rest = String(value ?? '');
  if (!pre || !post) {
    fragment.append(rest);
    return fragment;
  }
  while (rest) {
    const start = rest.indexOf(pre);
    if (start < 0) {
      fragment.append(rest);
      break;
    }
    if (start > 0) fragment.append(rest.slice(0, start));
    rest = rest.slice(start + pre.length);
    const end = rest.indexOf(post);
    fragment.append(h('mark', {}, end < 0 ? rest : rest.slice(0, end)));
    rest = end < 0 ? '' : rest.slice(end + post.length);
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
    settings: null, // highlight tags, ranking, searchable attributes (admin key only)
  };

  const box = h('input', { type: 'search', id: 'search-box', autocomplete: 'off', placeholder: 'Type to search' });
  const stats = h('p', { id: 'search-stats', class: 'stats', 'aria-live': 'polite' });
  const error = errorSlot('search-error');
  const facets = h('div', { id: 'facets' });
  const hits = h('ol', { id: 'hits', class: 'hits' });
  const previous = h('button', { type: 'button', id: 'prev-page', disabled: true }, '← Previous');
  const next = h('button', { type: 'button', id: 'next-page', disabled: true }, 'Next →');
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
      h('div', { class: 'results' },
        hits,
        h('nav', { class: 'pager', 'aria-label': 'Pages' }, previous, pageInfo, next))),
    h('details', { id: 'raw-request', class: 'raw' }, h('summary', {}, 'Request JSON'), requestJSON),
    h('details', { id: 'raw-response', class: 'raw' }, h('summary', {}, 'Response JSON'), responseJSON));

  box.addEventListener('input', () => {
    state.query = box.value;
    state.page = 0;
    search();
  });
  previous.addEventListener('click', () => {
    state.page -= 1;
    search();
  });
  next.addEventListener('click', () => {
    state.page += 1;
    search();
  });

  /** The refinements as facetFilters: one array of ORed values per attribute (ANDed), but `except`'s. */
  function facetFilters(except) {
    return [...state.refinements]
      .filter(([attribute]) => attribute !== except)
      .map(([attribute, values]) => [...values].map((value) => facetFilter(attribute, value)));
  }

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
    // own filter (as InstantSearch's disjunctive facets): its other values stay there to check.
    const disjunctive = [...state.refinements.keys()].map((attribute) => api('POST', path, {
      query: state.query, hitsPerPage: 0, facets: [attribute], facetFilters: facetFilters(attribute), clickAnalytics: false, analytics: false,
    }).then((answer) => [attribute, answer.facets?.[attribute]], () => [attribute, null]));
    let answer;
    let counts;
    try {
      [answer, ...counts] = await Promise.all([api('POST', path, body), ...disjunctive]);
    } catch (failure) {
      if (sequence === state.sequence) {
        showError(error, failure);
        stats.dataset.state = 'done';
      }
      return;
    }
    if (sequence !== state.sequence) return; // a newer search was sent meanwhile
    showError(error, '');
    const facetCounts = { ...answer.facets };
    for (const [attribute, values] of counts) if (values) facetCounts[attribute] = values;
    show(answer, facetCounts);
    stats.dataset.state = 'done';
  }

  function show(answer, facetCounts) {
    responseJSON.textContent = pretty(answer);
    fill(stats,
      h('strong', { id: 'nb-hits', 'data-value': answer.nbHits }, formatNumber(answer.nbHits)),
      answer.nbHits === 1 ? ' hit' : ' hits', ' in ',
      h('span', { id: 'processing-time' }, formatNumber(answer.processingTimeMS)), ' ms');
    const pages = Math.max(answer.nbPages || 0, 1);
    pageInfo.textContent = `Page ${(answer.page || 0) + 1} of ${formatNumber(pages)}`;
    previous.disabled = !answer.page;
    next.disabled = (answer.page || 0) + 1 >= pages;
    const first = (answer.page || 0) * (answer.hitsPerPage || HITS_PER_PAGE);
    fill(hits, (answer.hits || []).map((hit, i, all) => renderHit(hit, first + i, all[i - 1])));
    if (!answer.hits || !answer.hits.length) hits.append(h('li', { class: 'muted empty' }, 'No hits.'));
    renderFacets(facetCounts);
  }

  function renderFacets(answerFacets) {
    // Keyboard focus survives the redraw: the same checkbox is focused again.
    const focused = document.activeElement;
    const refocus = facets.contains(focused) ? { facet: focused.dataset.facet, value: focused.dataset.value, more: focused.dataset.more } : null;
    const attributes = [...new Set([...Object.keys(answerFacets), ...state.refinements.keys()])];
    fill(facets, attributes.length ? attributes.map((attribute, a) => {
      const counts = answerFacets[attribute] || {};
      const refined = state.refinements.get(attribute) || new Set();
      let values = Object.keys(counts);
      for (const value of refined) if (!(value in counts)) values.push(value); // keep refined values checkable
      const all = values.length;
      if (!state.expanded.has(attribute)) {
        values = values.filter((value, i) => i < FACET_VALUES_SHOWN || refined.has(value));
      }
      const more = all > FACET_VALUES_SHOWN && h('button', {
        type: 'button', class: 'link-button', 'data-more': attribute, 'aria-expanded': String(state.expanded.has(attribute)),
        onclick: () => {
          if (state.expanded.has(attribute)) state.expanded.delete(attribute);
          else state.expanded.add(attribute);
          renderFacets(answerFacets);
        },
      }, state.expanded.has(attribute) ? 'Show fewer' : `Show all ${all}`);
      return h('fieldset', { class: 'facet', 'data-facet': attribute },
        h('legend', {}, attribute),
        h('ul', {}, values.map((value, v) => {
          const id = `facet-${a}-${v}`;
          return h('li', {},
            h('input', {
              type: 'checkbox', id, checked: refined.has(value), 'data-test': 'facet-value',
              'data-facet': attribute, 'data-value': value, onchange: (event) => refine(attribute, value, event.target.checked),
            }),
            h('label', { for: id }, h('span', { class: 'facet-value' }, value), ' ', h('span', { class: 'count' }, formatNumber(counts[value] ?? 0))));
        })),
        more);
    }) : h('p', { class: 'muted' }, 'No facets: set attributesForFaceting in Settings.'));
    if (refocus) {
      const selector = refocus.more !== undefined
        ? `[data-more="${CSS.escape(refocus.more)}"]`
        : `input[data-facet="${CSS.escape(refocus.facet || '')}"][data-value="${CSS.escape(refocus.value || '')}"]`;
      facets.querySelector(selector)?.focus();
    }
  }

  function refine(attribute, value, on) {
    if (!state.refinements.has(attribute)) state.refinements.set(attribute, new Set());
    const values = state.refinements.get(attribute);
    if (on) values.add(value);
    else values.delete(value);
    if (!values.size) state.refinements.delete(attribute);
    state.page = 0;
    search();
  }

  function renderHit(hit, position, previousHit) {
    const [pre, post] = [state.settings?.highlightPreTag ?? '<em>', state.settings?.highlightPostTag ?? '</em>'];
    const highlights = hit._highlightResult || {};
    const snippets = hit._snippetResult || {};
    const titleKey = titleAttribute(hit);
    const title = titleKey
      ? (typeof highlights[titleKey]?.value === 'string' ? highlighted(highlights[titleKey].value, pre, post) : hit[titleKey])
      : hit.objectID;
    // Every highlighted attribute (a snippet where there is one), strings and lists of strings.
    const rows = [];
    for (const [attribute, result] of Object.entries(highlights)) {
      if (attribute === titleKey) continue;
      const shown = snippets[attribute] || result;
      const parts = Array.isArray(shown) ? shown : [shown];
      if (!parts.every((part) => part && typeof part.value === 'string')) continue;
      const value = h('dd', { 'data-test': 'hit-attr', 'data-attr': attribute });
      parts.forEach((part, i) => value.append(i ? ', ' : '', highlighted(part.value, pre, post)));
      rows.push(h('dt', {}, attribute), value);
    }
    const rankingId = `ranking-${position}`;
    const ranking = h('div', { id: rankingId, class: 'ranking', hidden: true });
    const toggle = h('button', { type: 'button', class: 'small', 'data-test': 'ranking-toggle', 'aria-expanded': 'false', 'aria-controls': rankingId }, 'Ranking');
    toggle.addEventListener('click', () => {
      const open = toggle.getAttribute('aria-expanded') !== 'true';
      toggle.setAttribute('aria-expanded', String(open));
      if (open && !ranking.firstChild) ranking.append(...rankingTable(hit, position, previousHit));
      ranking.hidden = !open;
    });
    return h('li', { class: 'hit', 'data-test': 'hit', 'data-object-id': hit.objectID },
      h('div', { class: 'hit-head' },
        h('span', { class: 'position' }, `#${position + 1}`),
        h('strong', { class: 'hit-title', 'data-test': 'hit-title' }, title),
        h('code', { class: 'object-id' }, hit.objectID),
        context.admin && h('a', { class: 'hit-edit', 'data-test': 'edit-control', href: `/dashboard/indexes/${encodeURIComponent(index)}/records?objectID=${encodeURIComponent(hit.objectID)}` }, 'Edit'),
        toggle),
      rows.length ? h('dl', { class: 'hit-attrs' }, rows) : null,
      ranking);
  }

  /** The hit's _rankingInfo as a table of criteria, the one that placed it below the previous hit marked. */
  function rankingTable(hit, position, previousHit) {
    const info = hit._rankingInfo || {};
    const before = previousHit?._rankingInfo;
    const order = (state.settings?.ranking || DEFAULT_RANKING).filter((name) => CRITERIA[name]);
    let deciding = null;
    if (info.promoted) deciding = 'promoted';
    else if (before && !before.promoted) deciding = order.find((name) => hasGeo(name, info, before) && info[CRITERIA[name].field] !== before[CRITERIA[name].field]) || null;
    const rows = SHOWN_ORDER.filter((name) => name !== 'geo' || hasGeo(name, info)).map((name) => {
      const { field, label, hint } = CRITERIA[name];
      return h('tr', { class: name === deciding ? 'deciding' : null, 'data-criterion': name },
        h('th', { scope: 'row' }, label),
        h('td', {}, h('code', {}, field)),
        h('td', { class: 'num' }, info[field] === undefined ? '—' : String(info[field])),
        h('td', { class: 'muted' }, explain(name, info[field], hit) || hint));
    });
    if (info.promoted !== undefined) {
      rows.push(h('tr', { class: deciding === 'promoted' ? 'deciding' : null, 'data-criterion': 'promoted' },
        h('th', { scope: 'row' }, 'promoted'), h('td', {}, h('code', {}, 'promoted')),
        h('td', { class: 'num' }, String(info.promoted)), h('td', { class: 'muted' }, 'pinned here by a Rule')));
    }
    let summary;
    if (deciding === 'promoted') summary = 'Promoted by a Rule: placed before the ranking criteria apply.';
    else if (!before) summary = position === 0 ? 'The first hit.' : 'The first hit of this page (compare with the previous page).';
    else if (deciding) summary = `Placed after #${position} by the “${CRITERIA[deciding].label}” criterion (marked).`;
    else summary = `Tied with #${position} on every criterion shown.`;
    return [
      h('p', { class: 'ranking-summary' }, summary),
      h('table', { class: 'data compact', 'data-test': 'ranking-table' },
        h('caption', { class: 'visually-hidden' }, `Ranking of ${hit.objectID}`),
        h('thead', {}, h('tr', {}, ['criterion', 'field', 'value', 'meaning'].map((name) => h('th', { scope: 'col' }, name)))),
        h('tbody', {}, rows)),
    ];
  }

  /** Geo counts only for searches around a location. */
  function hasGeo(name, info, other) {
    if (name !== 'geo') return true;
    return info.matchedGeoLocation !== undefined || info.geoDistance > 0 || (other && other.geoDistance > 0);
  }

  /** A plainer reading of some criteria, from the settings when the key may read them. */
  function explain(name, value, hit) {
    if (name === 'attribute' && typeof value === 'number') {
      const attributes = state.settings?.searchableAttributes;
      const slot = Math.floor(value / 1000);
      const attribute = attributes?.[slot]?.replace(/^unordered\((.*)\)$/, '$1');
      return `${attribute ? `“${attribute}”` : `searchable attribute ${slot + 1}`}, word ${(value % 1000) + 1}`;
    }
    if (name === 'custom' && state.settings?.customRanking?.length) {
      const values = state.settings.customRanking.map((entry) => {
        const attribute = entry.replace(/^(asc|desc)\((.*)\)$/, '$2');
        return `${entry} = ${JSON.stringify(attribute.split('.').reduce((o, k) => o?.[k], hit) ?? null)}`;
      });
      return values.join(', ');
    }
    return null;
  }

  // The settings give the highlight tags and ranking order; a search key cannot read them, and
  // the defaults then apply.
  const ready = context.admin
    ? api('GET', indexPath(index, 'settings')).then((settings) => { state.settings = settings; }, () => {})
    : Promise.resolve();
  ready.then(search);
}
