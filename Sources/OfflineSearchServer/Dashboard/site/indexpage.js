// One index: its name and tabs (Search for every key; the others need the admin key).
import { h } from '/dashboard/assets/dom.js';
import { renderSearch } from '/dashboard/assets/search.js';
import { renderRecords } from '/dashboard/assets/records.js';
import { renderSettings } from '/dashboard/assets/settings.js';
import { renderRules, renderSynonyms } from '/dashboard/assets/jsonlist.js';
import { renderAnalytics } from '/dashboard/assets/analytics.js';

// [route segment, label, admin only, renderer(panel, index, context)]
const TABS = [
  ['search', 'Search', false, renderSearch],
  ['records', 'Records', true, renderRecords],
  ['settings', 'Settings', true, renderSettings],
  ['synonyms', 'Synonyms', true, renderSynonyms],
  ['rules', 'Rules', true, renderRules],
  ['analytics', 'Analytics', true, renderAnalytics],
];

export function renderIndex(view, name, tab, context) {
  const tabs = TABS.filter(([, , adminOnly]) => context.admin || !adminOnly);
  const current = tabs.find(([id]) => id === tab) || tabs[0];
  const base = `/dashboard/indexes/${encodeURIComponent(name)}`;
  const panel = h('section', { class: 'panel', id: `panel-${current[0]}`, 'aria-labelledby': `tab-${current[0]}` });
  view.append(
    h('nav', { class: 'breadcrumbs', 'aria-label': 'Breadcrumb' },
      h('a', { href: '/dashboard' }, 'Indices'), ' / ', h('span', { 'aria-current': 'page' }, name)),
    h('h1', { tabindex: -1, id: 'index-name' }, name),
    h('nav', { class: 'tabs', 'aria-label': `Index ${name}` },
      tabs.map(([id, label]) => h('a', {
        href: id === 'search' ? base : `${base}/${id}`,
        id: `tab-${id}`,
        'aria-current': id === current[0] ? 'page' : null,
      }, label))),
    panel);
  current[3](panel, name, context);
}
