// The engine run here in node, as the browser tests' reference: the page's module, the shipped
// models (each loaded once per test file), and a decode's step records as the API gives them.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { loadEngine } from '../js/load-engine.mjs';

export const ap = await loadEngine();

const modelDir = fileURLToPath(new URL('../../web/models/', import.meta.url));

/** The names of the shipped checkpoints (web/models/<name>.safetensors). */
export const shipped = readdirSync(modelDir)
  .filter((f) => f.endsWith('.safetensors'))
  .map((f) => f.replace(/\.safetensors$/, ''));

/** The bytes of the shipped checkpoint `name`. */
export const modelFile = (name) => new Uint8Array(readFileSync(`${modelDir}${name}.safetensors`));

const models = new Map();
/** The shipped model `name`, loaded once. */
export function model(name) {
  if (!models.has(name)) models.set(name, ap.Model.load(modelFile(name)));
  return models.get(name);
}

/**
 * The API's decode of `text` with the shipped model `name`: greedy, except where `forces`
 * ([[step, tokenId]]) says, with the top 5 of each step and, for `beam` > 0, a beam search that wide.
 */
export function decodeReference(name, text, forces = [], beam = 0) {
  const s = model(name).decode(text, { topK: 5 });
  const forced = new Map(forces);
  const steps = [];
  while (!s.done()) steps.push(forced.has(s.length()) ? s.force(forced.get(s.length())) : s.step());
  const out = {
    sourceTokens: s.sourceTokens(),
    steps,
    outputText: s.outputText(),
    beam: beam ? s.beam(beam) : null,
  };
  s.delete();
  return out;
}
