// The dashboard's entry point: configuration, sign-in (keyed servers), and history routes.
//   /dashboard                         indices
//   /dashboard/indexes/NAME[/TAB]      one index (TAB: records, settings, synonyms, rules, analytics)
//   /dashboard/compare                 the same query on two indices
import { api, forgetKey, getConfig, loadConfig, rememberKey, storedKey, storedMode, useKey } from '/dashboard/assets/api.js';
import { h, showError } from '/dashboard/assets/dom.js';
import { renderIndices } from '/dashboard/assets/indices.js';
import { renderIndex } from '/dashboard/assets/indexpage.js';
import { renderCompare } from '/dashboard/assets/compare.js';

const $ = (id) => document.getElementById(id);

/** What the views share: whether edit controls are shown, and how to move to another route. */
const context = { admin: false, navigate };

/** The view a path names. */
function route(pathname) {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === '/' || path === '/dashboard') return { view: 'indices' };
  if (path === '/dashboard/compare') return { view: 'compare' };
  const match = path.match(/^\/dashboard\/indexes\/([^/]+)(?:\/([a-z]+))?$/);
  if (match) {
    try {
      return { view: 'index', name: decodeURIComponent(match[1]), tab: match[2] || 'search' };
    } catch {
      return { view: 'missing' };
    }
  }
  return { view: 'missing' };
}

/** Draws the view of the current URL; `focusId` names the element to focus after (else the h1). */
function render(focusId) {
  const view = $('view');
  view.replaceChildren();
  const current = route(location.pathname);
  const sections = { 'nav-indices': ['indices', 'index'], 'nav-compare': ['compare'] };
  for (const [id, views] of Object.entries(sections)) {
    if (views.includes(current.view)) $(id).setAttribute('aria-current', 'page');
    else $(id).removeAttribute('aria-current');
  }
  if (current.view === 'indices') {
    document.title = 'Indices · offline-search';
    renderIndices(view, context);
  } else if (current.view === 'index') {
    document.title = `${current.name} · offline-search`;
    renderIndex(view, current.name, current.tab, context);
  } else if (current.view === 'compare') {
    document.title = 'Compare · offline-search';
    renderCompare(view, context);
  } else {
    document.title = 'Not found · offline-search';
    view.append(h('h1', { tabindex: -1 }, 'Not found'),
      h('p', {}, 'Nothing lives at this address. ', h('a', { href: '/dashboard' }, 'See the indices.')));
  }
  if (focusId !== undefined) {
    const target = (focusId && document.getElementById(focusId)) || view.querySelector('h1');
    if (target) target.focus();
  }
}

/** Moves to `url` (a /dashboard path) with a history entry, and draws it. */
function navigate(url, { replace = false, focusId = null } = {}) {
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  render(focusId);
}

// Links to /dashboard/... are followed in the page (a modified click still opens a tab).
document.addEventListener('click', (event) => {
  const link = event.target.closest('a[href]');
  if (!link || event.defaultPrevented || event.button !== 0 || link.target || link.hasAttribute('download')) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const url = new URL(link.href);
  const inApp = url.pathname === '/dashboard' || url.pathname.startsWith('/dashboard/');
  if (url.origin !== location.origin || !inApp || url.pathname.startsWith('/dashboard/assets/')) return;
  if (!document.body.dataset.mode) return; // not signed in yet
  event.preventDefault();
  navigate(url.pathname + url.search, { focusId: link.id || null });
});
window.addEventListener('popstate', () => render());

/** Shows the pages for a signed-in mode: 'admin' or 'read-only'. */
function enter(mode) {
  context.admin = mode === 'admin';
  document.body.dataset.mode = mode;
  $('mode-badge').hidden = context.admin;
  $('sign-out').hidden = !getConfig().keysRequired;
  $('main-nav').hidden = false;
  $('key-form').hidden = true;
  if (location.pathname === '/') history.replaceState(null, '', '/dashboard' + location.search);
  render();
}

function showKeyForm() {
  delete document.body.dataset.mode;
  $('view').replaceChildren();
  $('main-nav').hidden = true;
  $('mode-badge').hidden = true;
  $('sign-out').hidden = true;
  $('key-form').hidden = false;
  document.title = 'Sign in · offline-search';
  $('api-key').focus();
}

// A key is checked with GET /1/keys/KEY (Algolia's: any key may read its own rights): a key
// with `editSettings` is the admin key, one without it gets the read-only page; a key the server
// refuses is shown and not kept.
$('key-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const key = $('api-key').value.trim();
  const submit = $('key-submit');
  if (!key) return;
  showError($('key-error'), '');
  submit.disabled = true;
  useKey(key);
  let mode;
  try {
    const rights = await api('GET', `/1/keys/${encodeURIComponent(key)}`);
    mode = (rights.acl || []).includes('editSettings') ? 'admin' : 'read-only';
  } catch (error) {
    useKey('');
    showError($('key-error'), error);
    submit.disabled = false;
    $('api-key').focus();
    return;
  }
  submit.disabled = false;
  rememberKey(key, mode);
  $('api-key').value = '';
  enter(mode);
});

$('sign-out').addEventListener('click', () => {
  forgetKey();
  showKeyForm();
});

window.addEventListener('dashboard:key-refused', (event) => {
  if (!document.body.dataset.mode) return; // the sign-in form says it itself
  forgetKey();
  showKeyForm();
  showError($('key-error'), `${event.detail}: sign in again.`);
});

async function start() {
  let config;
  try {
    config = await loadConfig();
  } catch (error) {
    $('loading').hidden = true;
    showError($('app-error'), error);
    return;
  }
  $('loading').hidden = true;
  $('version').textContent = `offline-search ${config.version || ''} · application ${config.appID}`;
  if (!config.keysRequired) {
    useKey('dashboard');
    enter('admin');
    return;
  }
  const key = storedKey();
  const mode = storedMode();
  if (key && mode) {
    useKey(key);
    enter(mode);
  } else {
    showKeyForm();
  }
}

start();
