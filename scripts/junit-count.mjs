// Counts the test cases of JUnit XML files (ctest --output-junit, node's junit reporter) for
// scripts/test.sh: prints "PASSED FAILED SKIPPED". A <testcase> holding a <failure> or an <error>
// failed, one holding a <skipped> was skipped (ctest: not run or disabled; node: skip and todo),
// every other one passed. A missing or unreadable file counts as one failure: a runner that
// wrote no results did not pass.
// usage: node scripts/junit-count.mjs FILE...
import { readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of process.argv.slice(2)) {
  let xml;
  try {
    xml = readFileSync(file, 'utf8');
  } catch {
    failed++;
    continue;
  }
  // Comments and CDATA may hold any text, a "<testcase" in a test's output among it.
  xml = xml.replace(/<!--[\s\S]*?-->/g, '').replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, '');
  // A start tag, its attributes read whole (a quoted value may hold "/>"), then its body if any.
  const start = /<testcase(?:\s+[^\s=>]+\s*=\s*(?:"[^"]*"|'[^']*'))*\s*(\/?)>/g;
  for (let m; (m = start.exec(xml));) {
    let body = '';
    if (m[1] !== '/') {
      const end = xml.indexOf('</testcase>', start.lastIndex);
      body = xml.slice(start.lastIndex, end < 0 ? xml.length : end);
    }
    if (/<(failure|error)\b/.test(body)) failed++;
    else if (/<skipped\b/.test(body)) skipped++;
    else passed++;
  }
}
console.log(`${passed} ${failed} ${skipped}`);
