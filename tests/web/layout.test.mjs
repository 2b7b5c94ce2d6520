// web/'s layout, read from its imports: a feature (web/features/<view>/) imports no other feature
// (what two features share sits in web/shared/), web/shared/ imports no feature, and the browser's
// own globals (the address, the person's languages, media queries, storage) are read only at the
// page's edge, web/main.js, which hands them to the modules (web/shared/platform.js).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';

const web = new URL('../../web/', import.meta.url).pathname;

/** Every source file under web/ but the checkpoints' and the font's folders. */
function sources(dir = web) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return ['models', 'fonts'].includes(name) ? [] : sources(path);
    return /\.(svelte|js|ts)$/.test(name) ? [path] : [];
  });
}

/** The files under web/ that `file` imports (static, dynamic and Worker URLs), relative to web/. */
function importsOf(file) {
  const text = readFileSync(file, 'utf8');
  const specifiers = [
    ...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+|new URL\(\s*)'(\.{1,2}\/[^']+)'/g),
  ].map((m) => m[1]);
  return specifiers
    .map((s) => relative(web, resolve(dirname(file), s)))
    .filter((path) => !path.startsWith('..'));
}

const featureOf = (path) => /^features\/([^/]+)\//.exec(path)?.[1] ?? null;

test('a feature imports no other feature, and web/shared/ imports none', () => {
  const crossings = [];
  for (const file of sources()) {
    const from = relative(web, file);
    for (const to of importsOf(file)) {
      const [a, b] = [featureOf(from), featureOf(to)];
      if (b && ((a && a !== b) || from.startsWith('shared/'))) crossings.push(`${from} → ${to}`);
    }
  }
  assert.deepEqual(crossings, []);
});

test('the features are the views, each in its folder', () => {
  const features = readdirSync(join(web, 'features')).sort();
  assert.deepEqual(features, [
    'beam',
    'caption',
    'compare',
    'decode',
    'length',
    'listen',
    'sandbox',
    'self',
    'tour',
    'train',
  ]);
});

test("the browser's address, languages, media queries and storage are read in web/main.js only", () => {
  const edge = ['main.js', 'shared/platform.js'];
  const reads =
    /(?<![.\w])(location\.(hash|href|reload|search)|window\.location|navigator\.|matchMedia\(|localStorage|history\.replaceState)/;
  const found = sources()
    .map((file) => relative(web, file))
    .filter((path) => !edge.includes(path))
    .filter((path) => reads.test(readFileSync(join(web, path), 'utf8').replace(/^\s*(\/\/|\*).*$/gm, '')));
  assert.deepEqual(found, []);
});
