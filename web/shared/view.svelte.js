// Which view the page shows: the first field of the link.
import { declareLink } from './link/link.svelte.js';
import { oneOf, quote } from './link/parse.js';
import { Text, translatorOf } from './i18n/translate.js';
import linksDict from './link/strings.js';

const t = translatorOf(linksDict);

export const VIEWS = /** @type {const} */ ([
  'decode',
  'compare',
  'beam',
  'self',
  'sandbox',
  'train',
  'caption',
  'length',
  'listen',
]);
/** @typedef {(typeof VIEWS)[number]} View */

export const page = $state({ view: /** @type {View} */ ('decode') });

declareLink('view', [
  {
    key: 'view',
    get: () => page.view,
    set: (view) => (page.view = view),
    parse: oneOf(
      VIEWS,
      (text, fallback) => new Text(linksDict, 'noView', { view: quote(text), shown: t(fallback) }),
    ),
    written: () => 'always',
  },
]);
