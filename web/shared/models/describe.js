// A kept model in words, written from its metadata each time it is shown (in the page's language
// of that moment): its task, score function and attention style by their names (never the
// engine's ids), the step it was kept at and its held-out exact match. A model loaded from a file
// keeps its file's name.
import { translatorOf } from '../i18n/translate.js';
import { scoreFunction, SCORES } from '../lib/score-functions.js';
import { TASK_IDS, ownPairs, task as taskOf } from '../text/tasks.js';
import modelsDict from './strings.js';

const t = translatorOf(modelsDict);

const taskName = (id) => (TASK_IDS.includes(id) || id === ownPairs.id ? taskOf(id).label : id);
const scoreName = (score) => (SCORES.includes(score) ? scoreFunction(score).label : score);
/** An attention style as the page writes it, named after its author: Bahdanau, Luong. */
export const styleName = (style) => ({ bahdanau: 'Bahdanau', luong: 'Luong' })[style] ?? style;

/**
 * The model's name in the list: a file's name, or what it was trained on and when.
 * @param {import('./saved-models.js').SavedModel & { diverged?: boolean }} m
 */
export function savedName(m) {
  if (m.origin === 'file') return m.label;
  const step = m.step === null ? '' : t('atStep', { step: m.step });
  return `${taskName(m.task)} · ${scoreName(m.score)} · ${styleName(m.style)}${step}${m.diverged ? t('diverged') : ''}`;
}

/**
 * The line under its name: task, score function, style, held-out exact match.
 * @param {import('./saved-models.js').SavedModel} m
 */
export function savedFacts(m) {
  const parts = [taskName(m.task), scoreName(m.score), styleName(m.style)];
  if (typeof m.heldoutExactMatch === 'number')
    parts.push(t('heldOutExact', { p: `${(100 * m.heldoutExactMatch).toFixed(1)} %` }));
  return parts.join(' · ');
}
