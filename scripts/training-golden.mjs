// Writes tests/e2e/training_golden.json: what the page must show after each of the short training
// runs the browser tests make (tests/js/training-reference.mjs trains them here, under node).
// Run it after a change that changes training, look at the difference, and commit it:
//   node scripts/training-golden.mjs
import { writeFileSync } from 'node:fs';

import { trainingReference } from '../tests/js/training-reference.mjs';

const file = new URL('../tests/e2e/training_golden.json', import.meta.url);
writeFileSync(file, `${JSON.stringify(await trainingReference(), null, 1)}\n`);
console.log(`wrote ${file.pathname}`);
