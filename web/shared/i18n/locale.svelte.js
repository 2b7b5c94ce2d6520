// The interface's language, 'en' or 'zh': from the link's `lang=` when it has one, else from the
// person's preferred language. Formulas, numbers and the models' own tokens are never translated.
import { readLangFrom, Text, translatorOf } from './translate.js';
import { declareLink } from '../link/link.svelte.js';
import { oneOf } from '../link/parse.js';
import linksDict from '../link/strings.js';
import { platform } from '../platform.js';

export const LANGS = /** @type {const} */ (['en', 'zh']);

/**
 * The language of the person's first preferred language: Chinese for any zh, else English.
 * @param {readonly string[]} languages
 * @returns {'en' | 'zh'}
 */
export const preferredLang = (languages) =>
  String(languages[0] ?? 'en')
    .toLowerCase()
    .startsWith('zh')
    ? 'zh'
    : 'en';

export const locale = $state({ lang: /** @type {'en' | 'zh'} */ ('en') });

// the plain modules' texts read the same (reactive) language
readLangFrom(() => locale.lang);

declareLink('lang', [
  {
    key: 'lang',
    get: () => locale.lang,
    set: (lang) => (locale.lang = lang),
    // the one parser of the language's values, which says what it did with a bad one
    parse: oneOf(
      LANGS,
      (text, fallback) =>
        new Text(linksDict, 'notOneOf', {
          field: `lang=${text.slice(0, 30)}`,
          options: LANGS.join(', '),
          used: fallback,
        }),
    ),
    fallback: () => preferredLang(platform.languages),
    written: () => 'always',
  },
]);

/**
 * A translator for one feature's strings. Each feature keeps its own dictionary (its strings.js:
 * { en: {key: text}, zh: {key: text} }), so features are translated side by side without one
 * shared file. `{name}` in a text is replaced by params.name. A key missing in Chinese falls back
 * to English (a test lists every such key, so none ships).
 * @template {{ en: Record<string, string>, zh: Record<string, string> }} D
 * @param {D} dict
 * @returns {(key: keyof D['en'] & string, params?: Record<string, string | number | null | undefined>) => string}
 */
export const translator = (dict) => translatorOf(dict);
