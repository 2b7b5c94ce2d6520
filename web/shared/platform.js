// The browser as the page's modules see it: the person's languages, media queries, storage and
// the address. main.js, the page's one edge to the browser, installs the real ones before the page
// starts; until then (and under node, where the unit tests install their own) it is a browser with
// none of them. Modules read it when they run, never when they are imported.

/**
 * @typedef {{
 *   languages: readonly string[],
 *   matchMedia: (query: string) => { matches: boolean,
 *     addEventListener(type: 'change', listener: () => void): void,
 *     removeEventListener(type: 'change', listener: () => void): void },
 *   storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null,
 *   baseURI: string,
 *   fetch: (url: string | URL) => Promise<Response>,
 *   href: () => string,
 *   copy: (text: string) => Promise<void>,
 * }} Platform
 */

/** @type {Platform} */
export const platform = {
  languages: [],
  matchMedia: () => ({ matches: false, addEventListener() {}, removeEventListener() {} }),
  storage: null,
  baseURI: 'http://localhost/',
  fetch: (url) => fetch(url),
  href: () => 'http://localhost/',
  copy: () => Promise.reject(new Error('there is no clipboard here')),
};

/** @param {Partial<Platform>} parts */
export function installPlatform(parts) {
  Object.assign(platform, parts);
}
