// Reads a Chromium trace (the Performance panel's format, from browser.startTracing) and says
// where the page's main thread spent its time: the self time of each trace event (its duration
// less that of the events nested in it) summed by name, and the script's share by function.
// Only the renderer main threads (CrRendererMain) count: that is where a step's handlers, style,
// layout and paint run; the engine's Worker has its own thread.
import { readFileSync } from 'node:fs';

/**
 * @param {string} path  the trace file
 * @returns {{ total: number, byEvent: [string, number][], byFunction: [string, number][] }} ms
 */
export function summarizeTrace(path) {
  const parsed = JSON.parse(readFileSync(path, 'utf8'));
  const events = Array.isArray(parsed) ? parsed : parsed.traceEvents;
  const main = new Set(
    events
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const byThread = new Map();
  for (const e of events) {
    if (e.ph !== 'X' || typeof e.dur !== 'number' || !main.has(`${e.pid}:${e.tid}`)) continue;
    const key = `${e.pid}:${e.tid}`;
    if (!byThread.has(key)) byThread.set(key, []);
    byThread.get(key).push(e);
  }
  const byEvent = new Map();
  const byFunction = new Map();
  let total = 0;
  const add = (map, key, us) => map.set(key, (map.get(key) ?? 0) + us);
  for (const list of byThread.values()) {
    // Longer first at equal starts, so a parent comes before the child that starts with it.
    list.sort((a, b) => a.ts - b.ts || b.dur - a.dur);
    const stack = [];
    const self = new Map();
    for (const e of list) {
      while (stack.length && stack.at(-1).ts + stack.at(-1).dur <= e.ts) stack.pop();
      const parent = stack.at(-1);
      if (parent && e.ts + e.dur <= parent.ts + parent.dur) self.set(parent, self.get(parent) - e.dur);
      else if (!parent) total += e.dur;
      self.set(e, e.dur);
      stack.push(e);
    }
    for (const [e, us] of self) {
      add(byEvent, e.name, us);
      if (e.name === 'FunctionCall' || e.name === 'EvaluateScript' || e.name === 'v8.callFunction') {
        const d = e.args?.data ?? {};
        const where =
          d.functionName || d.url
            ? `${d.functionName || '(anonymous)'} ${String(d.url ?? '')
                .split('/')
                .pop()}:${d.lineNumber ?? '?'}`
            : e.name;
        add(byFunction, where, us);
      }
    }
  }
  const top = (map) => [...map.entries()].sort((a, b) => b[1] - a[1]).map(([k, us]) => [k, us / 1000]);
  return { total: total / 1000, byEvent: top(byEvent), byFunction: top(byFunction) };
}

/** The summary as lines for the bench's log: the top `n` events and functions with their shares. */
export function describeTrace(summary, n = 8) {
  const pct = (ms) => `${((100 * ms) / summary.total).toFixed(0)}%`;
  return [
    `main thread busy ${summary.total.toFixed(1)} ms in all; by event (self time):`,
    ...summary.byEvent.slice(0, n).map(([name, ms]) => `  ${name}: ${ms.toFixed(1)} ms (${pct(ms)})`),
    'script by function (self time of its call events):',
    ...summary.byFunction.slice(0, n).map(([name, ms]) => `  ${name}: ${ms.toFixed(1)} ms (${pct(ms)})`),
  ];
}
