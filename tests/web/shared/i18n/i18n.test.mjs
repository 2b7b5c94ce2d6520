// The interface's dictionaries (each feature's strings.js, web/strings.js and web/shared/i18n/*.js):
// the same keys in English and Chinese, no empty
// text, the same {placeholders} on both sides, and every key the page's code asks a translator for
// is in the dictionary that translator reads (a static scan of web/).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { test } from 'node:test';

import { Text, translate } from '../../../../web/shared/i18n/translate.js';

const web = new URL('../../../../web/', import.meta.url).pathname;
const i18nDir = join(web, 'shared/i18n');

/** Every .svelte and .js file under web/ but the checkpoints' folder. */
function sources(dir = web) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    // (web/models holds the checkpoints; web/shared/models is code like the rest)
    if (statSync(path).isDirectory()) return path === join(web, 'models') ? [] : sources(path);
    return /\.(svelte|js)$/.test(name) ? [path] : [];
  });
}
// A dictionary: a file named strings.js (or …-strings.js), or one of web/shared/i18n's but its machinery.
const isDictionary = (path) =>
  /(^|[/-])strings\.js$/.test(path) ||
  (dirname(path) === i18nDir && !['translate.js', 'locale.svelte.js'].includes(relative(i18nDir, path)));
const dictFiles = sources().filter(isDictionary);
const dicts = Object.fromEntries(
  await Promise.all(dictFiles.map(async (f) => [f, (await import(f)).default])),
);
const placeholders = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test('there are dictionaries, each with en and zh', () => {
  assert.ok(dictFiles.length >= 8, dictFiles.join(', '));
  // the what-ifs' and the Why attention view's, merged from their own branches, are scanned too
  for (const file of ['shared/text/whatif-strings.js', 'features/length/strings.js'])
    assert.ok(dictFiles.includes(join(web, file)), file);
  for (const [file, dict] of Object.entries(dicts)) {
    assert.equal(typeof dict.en, 'object', file);
    assert.equal(typeof dict.zh, 'object', file);
  }
});

test('every dictionary has the same keys in en and zh, no empty text, the same placeholders', () => {
  for (const [file, dict] of Object.entries(dicts)) {
    const name = relative(web, file);
    assert.deepEqual(Object.keys(dict.zh).sort(), Object.keys(dict.en).sort(), `${name}: keys`);
    for (const [key, en] of Object.entries(dict.en)) {
      const zh = dict.zh[key];
      assert.ok(typeof en === 'string' && en.trim() !== '', `${name}: en.${key} is empty`);
      assert.ok(typeof zh === 'string' && zh.trim() !== '', `${name}: zh.${key} is empty`);
      assert.deepEqual(placeholders(zh), placeholders(en), `${name}: placeholders of ${key}`);
    }
  }
});

test('the Chinese side is Chinese: no text left in English letters alone', () => {
  // a text may keep a formula, a name (GRU, Bahdanau), a unit or a token; one of several words
  // of English and no Chinese character is a text nobody translated
  for (const [file, dict] of Object.entries(dicts))
    for (const [key, zh] of Object.entries(dict.zh)) {
      const words = zh.replace(/\{\w+\}/g, '').match(/[A-Za-z]{3,}/g) ?? [];
      if (words.length >= 3 && !/[\u3400-\u9fff]/.test(zh))
        assert.fail(`${relative(web, file)}: zh.${key} reads as English: ${zh}`);
      if (zh === dict.en[key] && /[a-z]{4,} [a-z]{4,}/i.test(zh))
        assert.fail(`${relative(web, file)}: zh.${key} is the English text`);
    }
});

test("every key a translator is asked for is in that translator's dictionary", () => {
  let calls = 0;
  const files = sources().filter((f) => !isDictionary(f));
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    // import fooDict from './strings.js';  …  const t = translator(fooDict);
    const imports = Object.fromEntries(
      [...text.matchAll(/import (\w+) from '([^']*\.js)'/g)].map((m) => [m[1], resolve(dirname(file), m[2])]),
    );
    const names = [...text.matchAll(/const (\w+) = translator(?:Of)?\((\w+)\)/g)];
    for (const [, name, dictName] of names) {
      const dict = dicts[imports[dictName]];
      assert.ok(dict, `${relative(web, file)}: ${dictName} is a dictionary`);
      for (const m of text.matchAll(new RegExp(`(?<![\\w.])${name}\\(\\s*'([^']+)'`, 'g'))) {
        calls++;
        assert.ok(m[1] in dict.en, `${relative(web, file)}: ${name}('${m[1]}') is not in ${dictName}`);
      }
    }
    // a Text made from a dictionary: new Text(fooDict, 'key', …)
    for (const m of text.matchAll(/new Text\((\w+), '([^']+)'/g)) {
      calls++;
      assert.ok(m[2] in dicts[imports[m[1]]].en, `${relative(web, file)}: ${m[1]}.${m[2]}`);
    }
    for (const m of text.matchAll(/new Text\((\w+), (\w+) \? '([^']+)' : '([^']+)'/g))
      for (const key of [m[3], m[4]]) assert.ok(key in dicts[imports[m[1]]].en, `${m[1]}.${key}`);
  }
  assert.ok(calls > 300, `${calls} translated texts found`);
});

test("keys made from a name are in the dictionary: the Length view's models and tasks", async () => {
  const { SCORES } = await import('../../../../web/shared/lib/score-functions.js');
  const length = dicts[join(web, 'features/length/strings.js')];
  // LengthView and BucketExamples ask for t(`model_${score}`) and t(`task_${task}`)
  for (const score of ['none', ...SCORES]) assert.ok(`model_${score}` in length.en, `model_${score}`);
  for (const task of ['reverse', 'dates', 'zh']) assert.ok(`task_${task}` in length.en, `task_${task}`);
});

test('a translation fills its placeholders, keeps unknown ones, and a Text is written when shown', () => {
  const dict = { en: { hi: 'step {n} of {m}' }, zh: { hi: '第 {n} 步，共 {m} 步' } };
  assert.equal(translate(dict, 'hi', { n: 2, m: 5 }), 'step 2 of 5');
  assert.equal(translate(dict, 'hi', { n: 2 }), 'step 2 of {m}');
  assert.equal(translate(dict, 'missing'), 'missing');
  assert.equal(String(new Text(dict, 'hi', { n: 1, m: 3 })), 'step 1 of 3');
});
