// Analytics: top searches, searches without results and searches per day (the Analytics API's
// GET /2/searches…, the admin key).
import { api } from '/dashboard/assets/api.js';
import { errorSlot, fill, formatNumber, h, showError } from '/dashboard/assets/dom.js';

const percent = (rate) => (typeof rate === 'number' ? `${(rate * 100).toFixed(1)} %` : '—');

// Each report: its path, its table's columns ([heading, value of a row]).
const REPORTS = [
  {
    id: 'analytics-top', title: 'Top searches', path: (index) => `/2/searches?index=${encodeURIComponent(index)}&clickAnalytics=true`,
    rows: (answer) => answer.searches || [],
    columns: [
      ['Search', (row) => row.search || '(empty query)'],
      ['Count', (row) => formatNumber(row.count)],
      ['Hits', (row) => formatNumber(row.nbHits)],
      ['Click-through', (row) => percent(row.clickThroughRate)],
      ['Avg. position', (row) => (typeof row.averageClickPosition === 'number' ? row.averageClickPosition.toFixed(1) : '—')],
      ['Conversion', (row) => percent(row.conversionRate)],
    ],
  },
  {
    id: 'analytics-no-results', title: 'Searches without results', path: (index) => `/2/searches/noResults?index=${encodeURIComponent(index)}`,
    rows: (answer) => answer.searches || [],
    columns: [
      ['Search', (row) => row.search || '(empty query)'],
      ['Count', (row) => formatNumber(row.count)],
      ['With filters', (row) => formatNumber(row.withFilterCount)],
    ],
  },
];

export function renderAnalytics(panel, index) {
  const sections = REPORTS.map((report) => {
    const error = errorSlot(`${report.id}-error`);
    const body = h('tbody');
    const section = h('section', { class: 'report', 'aria-labelledby': `${report.id}-title` },
      h('h3', { id: `${report.id}-title` }, report.title), error,
      h('div', { class: 'table-scroll' }, h('table', { class: 'data', id: report.id },
        h('thead', {}, h('tr', {}, report.columns.map(([heading], i) => h('th', { scope: 'col', class: i ? 'num' : null }, heading)))),
        body)));
    return { report, error, body, section };
  });

  const countError = errorSlot('analytics-count-error');
  const total = h('p', { class: 'stats', id: 'analytics-total' });
  const days = h('tbody');
  const refresh = h('button', { type: 'button', id: 'analytics-refresh', class: 'quiet' }, 'Refresh');

  panel.append(
    h('div', { class: 'section-head' }, h('h2', {}, 'Analytics'), refresh),
    h('p', { class: 'muted' }, 'Searches are counted as a user settles on them: a burst of keystrokes counts once, when it ends. The dashboard\'s own searches are not counted.'),
    h('div', { class: 'reports' }, sections.map(({ section }) => section),
      h('section', { class: 'report', 'aria-labelledby': 'analytics-count-title' },
        h('h3', { id: 'analytics-count-title' }, 'Searches per day'), total, countError,
        h('table', { class: 'data', id: 'analytics-count' },
          h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Day'), h('th', { scope: 'col', class: 'num' }, 'Searches'), h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Bar')))),
          days))));

  async function load() {
    await Promise.all([
      ...sections.map(async ({ report, error, body }) => {
        showError(error, '');
        try {
          const rows = report.rows(await api('GET', report.path(index)));
          fill(body, rows.length
            ? rows.map((row) => h('tr', {}, report.columns.map(([, value], i) => h(i ? 'td' : 'th', { class: i ? 'num' : null, scope: i ? null : 'row' }, value(row)))))
            : h('tr', {}, h('td', { colspan: report.columns.length, class: 'muted' }, 'No searches counted yet.')));
        } catch (failure) {
          showError(error, failure);
        }
      }),
      (async () => {
        showError(countError, '');
        try {
          const answer = await api('GET', `/2/searches/count?index=${encodeURIComponent(index)}`);
          const dates = answer.dates || [];
          const most = Math.max(1, ...dates.map((day) => day.count || 0));
          total.textContent = `${formatNumber(answer.count)} searches in these ${dates.length} days`;
          fill(days, dates.map((day) => {
            const bar = h('span', { class: 'bar' });
            bar.style.width = `${((day.count || 0) / most) * 100}%`; // CSSOM: allowed by the page's CSP
            return h('tr', {}, h('th', { scope: 'row' }, day.date), h('td', { class: 'num' }, formatNumber(day.count)),
              h('td', { class: 'bar-cell' }, bar));
          }));
        } catch (failure) {
          showError(countError, failure);
        }
      })(),
    ]);
  }

  refresh.addEventListener('click', load);
  load();
}
