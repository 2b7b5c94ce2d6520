// The front page stays a front page, and the docs point only at what is there: README.md has at
// most 150 lines (the manual is docs/USING.md), and every relative link of README.md and of the
// Markdown files in docs/ names a file or folder of the repository.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const docs = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** The targets of a Markdown text's links and images: [text](target) and [text]: target. */
function linksOf(markdown) {
  const text = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  const inline = [...text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]);
  const reference = [...text.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)].map((m) => m[1]);
  return [...inline, ...reference];
}

test('README.md is a front page: at most 150 lines', () => {
  const lines = readFileSync(join(root, 'README.md'), 'utf8').trimEnd().split('\n').length;
  assert.ok(lines <= 150, `README.md has ${lines} lines; the manual belongs in docs/USING.md`);
});

test('README.md shows the page in a committed screenshot', () => {
  const images = linksOf(readFileSync(join(root, 'README.md'), 'utf8')).filter((l) =>
    /\.(png|jpe?g|webp)$/i.test(l),
  );
  assert.ok(images.length > 0, 'no picture of the page');
});

test('every relative link of README.md and docs/*.md names a file of the repository', () => {
  const broken = [];
  let checked = 0;
  for (const doc of docs) {
    for (const link of linksOf(readFileSync(join(root, doc), 'utf8'))) {
      if (/^([a-z][a-z0-9+.-]*:|#|\/\/)/i.test(link)) continue; // another site, or a place in this page
      const target = resolve(root, dirname(doc), decodeURIComponent(link.replace(/[#?].*$/, '')));
      const inside = !relative(root, target).startsWith('..');
      checked++;
      if (!inside || !existsSync(target)) broken.push(`${doc}: ${link}`);
    }
  }
  assert.ok(checked > 0, 'no relative link found: the check would pass on anything');
  assert.deepEqual(broken, []);
});

test('the link reader finds inline links, images and references, and skips code', () => {
  assert.deepEqual(linksOf('see [a](docs/A.md#x) and ![p](docs/p.png "t")\n[r]: wasm/x.md\n`[no](b.md)`'), [
    'docs/A.md#x',
    'docs/p.png',
    'wasm/x.md',
  ]);
});

/** The folders named in the first column of docs/ARCHITECTURE.md's layer table, e.g. `src/core/`. */
function layerFolders(markdown) {
  return [...markdown.matchAll(/^\|\s*\d+\s*\|\s*`([^`]+)\/`\s*\|/gm)].map((m) => m[1]);
}
const foldersIn = (dir) =>
  readdirSync(join(root, dir), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => `${dir}/${e.name}`)
    .sort();

test("docs/ARCHITECTURE.md's layer table lists src/'s folders as they are, and tests/ mirrors them", () => {
  const doc = readFileSync(join(root, 'docs/ARCHITECTURE.md'), 'utf8');
  const listed = layerFolders(doc);
  assert.ok(listed.includes('wasm') && listed.includes('web'), `the table lists ${listed.join(', ')}`);
  assert.deepEqual(listed.filter((f) => f.startsWith('src/')).sort(), foldersIn('src'));
  const unmirrored = foldersIn('src').filter((f) => !existsSync(join(root, f.replace(/^src/, 'tests'))));
  assert.deepEqual(unmirrored, [], 'a folder of src/ without its tests/ folder');
  const unnamed = [...foldersIn('wasm'), ...foldersIn('web/features')].filter((f) => !doc.includes(`${f}/`));
  assert.deepEqual(unnamed, [], 'docs/ARCHITECTURE.md never names these folders');
});

test('the layer table reader finds the folders of numbered rows only', () => {
  assert.deepEqual(
    layerFolders('| layer | folder |\n|---|---|\n| 1 | `src/core/` | x |\n| 9 | `web/` | y |\n'),
    ['src/core', 'web'],
  );
});
