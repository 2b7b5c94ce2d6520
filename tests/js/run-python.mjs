// A "Python (NumPy)" export run as a learner runs it, with Debian's NumPy (python3-numpy,
// scripts/setup.sh; the python3 first on PATH may have none): its exit status (0 when the page's
// numbers and NumPy's agree within 1e-5) and what it printed.
import { spawnSync } from 'node:child_process';

/** @param {string | Buffer} script */
export function runPython(script) {
  const run = spawnSync('/usr/bin/python3', ['-'], { input: script, encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}
