// The translation machinery in plain JS, so the page's plain modules (tasks, errors, link notes,
// exports) can be translated too and still be imported by node's unit tests. The language itself
// lives in web/shared/i18n/locale.svelte.js, which hands its reactive reader to readLangFrom: a text
// computed inside a component's markup then follows a switch of language.

/** @type {() => 'en' | 'zh'} */
let source = () => 'en';

/** @param {() => 'en' | 'zh'} read */
export function readLangFrom(read) {
  source = read;
}

/** The interface's language now ('en' under node). */
export const currentLang = () => source();

/**
 * One text of a dictionary in the current language: `{name}` is replaced by params.name. A key
 * missing in Chinese falls back to English (tests/web/i18n.test.mjs lists every such key).
 * @param {{ en: Record<string, string>, zh: Record<string, string> }} dict
 * @param {string} key
 * @param {Record<string, string | number | null | undefined>} [params]
 */
export function translate(dict, key, params) {
  const text = dict[source()]?.[key] ?? dict.en[key] ?? key;
  return params
    ? text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name] ?? '') : whole))
    : text;
}

/**
 * @template {{ en: Record<string, string>, zh: Record<string, string> }} D
 * @param {D} dict
 * @returns {(key: keyof D['en'] & string, params?: Record<string, string | number | null | undefined>) => string}
 */
export const translatorOf = (dict) => (key, params) => translate(dict, key, params);

/**
 * A text kept as its key and parameters and written out each time it is shown (String(text)), in
 * the language of that moment: for texts made once and shown for long, such as the link's notes.
 */
export class Text {
  /**
   * @param {{ en: Record<string, string>, zh: Record<string, string> }} dict
   * @param {string} key
   * @param {Record<string, string | number | null | undefined>} [params]
   */
  constructor(dict, key, params) {
    this.dict = dict;
    this.key = key;
    this.params = params;
  }
  toString() {
    return translate(this.dict, this.key, this.params);
  }
}
