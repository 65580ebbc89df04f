// The server's REST API: Algolia's paths, with the dashboard's credentials on every request.

const KEY_STORAGE = 'offline-search.dashboard.key';
const MODE_STORAGE = 'offline-search.dashboard.mode';

let config = { appID: 'LOCAL', keysRequired: false, version: '' };
let apiKey = 'dashboard'; // any string does when the server has no keys

/** An answer of the API that is not 2xx: Algolia's `{"message", "status"}`. */
export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
  }
}

/** Reads /dashboard/config.json (application ID, whether keys are required, version). */
export async function loadConfig() {
  const response = await fetch('/dashboard/config.json', { headers: { Accept: 'application/json' } });
  if (!response.ok) throw new ApiError(`The dashboard configuration is missing (HTTP ${response.status})`, response.status);
  config = await response.json();
  if (!config.keysRequired) apiKey = 'dashboard';
  return config;
}

export const getConfig = () => config;

/** The key kept for this tab (sessionStorage only), or null. */
export function storedKey() {
  return config.keysRequired ? sessionStorage.getItem(KEY_STORAGE) : 'dashboard';
}

export function storedMode() {
  return sessionStorage.getItem(MODE_STORAGE);
}

export function useKey(key) {
  apiKey = key;
}

export function rememberKey(key, mode) {
  sessionStorage.setItem(KEY_STORAGE, key);
  sessionStorage.setItem(MODE_STORAGE, mode);
}

export function forgetKey() {
  sessionStorage.removeItem(KEY_STORAGE);
  sessionStorage.removeItem(MODE_STORAGE);
  apiKey = '';
}

/** Sends one request; resolves to the parsed JSON answer, or throws an ApiError. */
export async function api(method, path, body) {
  const init = {
    method,
    headers: { 'X-Algolia-Application-Id': config.appID, 'X-Algolia-API-Key': apiKey },
  };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers['Content-Type'] = 'application/json';
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    throw new ApiError(`The server cannot be reached (${error.message})`, 0);
  }
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    // A kept key the server no longer takes (restarted with other keys): the page asks again.
    if (response.status === 403 && config.keysRequired && /invalid/i.test(data?.message || '')) {
      window.dispatchEvent(new CustomEvent('dashboard:key-refused', { detail: data.message }));
    }
    throw new ApiError((data && data.message) || `HTTP ${response.status} ${response.statusText}`, response.status);
  }
  return data;
}

/** The path of an index: `/1/indexes/NAME` (the name encoded), plus `suffix` parts, each encoded. */
export function indexPath(name, ...suffix) {
  return ['/1/indexes', name, ...suffix].map((part, i) => (i === 0 ? part : encodeURIComponent(part))).join('/');
}
