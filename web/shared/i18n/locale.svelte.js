// The interface's language, 'en' or 'zh': from the link's `lang=` when it has one, else from the
// browser's preferred language. Formulas, numbers and the models' own tokens are never translated.
import { readLangFrom, translatorOf } from './translate.js';
import { hashParts } from '../link/url.js';

export const LANGS = /** @type {const} */ (['en', 'zh']);

/** @returns {'en' | 'zh'} */
function initialLang() {
  const asked =
    typeof location === 'undefined' ? null : new URLSearchParams(location.hash.slice(1)).get('lang');
  if (asked === 'en' || asked === 'zh') return asked;
  const preferred =
    typeof navigator === 'undefined' ? 'en' : (navigator.languages?.[0] ?? navigator.language ?? 'en');
  return preferred.toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

export const locale = $state({ lang: initialLang() });

// the plain modules' texts read the same (reactive) language
readLangFrom(() => locale.lang);

hashParts.push(() => [['lang', locale.lang]]);

/**
 * A translator for one feature's strings. Each feature keeps its own dictionary file in web/i18n/
 * ({ en: {key: text}, zh: {key: text} }), so features are translated side by side without one
 * shared file. `{name}` in a text is replaced by params.name. A key missing in Chinese falls back to
 * English (a test lists every such key, so none ships).
 * @template {{ en: Record<string, string>, zh: Record<string, string> }} D
 * @param {D} dict
 * @returns {(key: keyof D['en'] & string, params?: Record<string, string | number | null | undefined>) => string}
 */
export const translator = (dict) => translatorOf(dict);
