// What a diverged run says, in the reader's language, from the engine's account of it (its kind,
// the first and the offending mini-batch loss, the step and the learning rate): plainly that the
// run failed, why, and what to change.
import { translatorOf } from '../../shared/i18n/translate.js';
import trainDict from './strings.js';

const tr = translatorOf(trainDict);

/**
 * @typedef {{ kind: 'loss_grew' | 'loss_not_finite' | 'gradient_not_finite' | 'parameters_not_finite',
 *   step: number, firstLoss: number | null, loss: number, learningRate: number | null }} Divergence
 */

/** A loss as a reader compares it: two significant digits, large ones as 1.2e6. */
export function lossText(/** @type {number | null} */ x) {
  if (x === null || x === undefined) return '–';
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '∞' : '−∞';
  return Math.abs(x) >= 1e4 ? x.toExponential(1).replace('e+', 'e') : String(Number(x.toPrecision(2)));
}

/** @param {Divergence} d */
export function divergenceText(d) {
  const lr = d.learningRate === null ? '–' : String(Number(d.learningRate.toPrecision(3)));
  const cause =
    d.kind === 'loss_grew'
      ? tr('lossGrew', { from: lossText(d.firstLoss), to: lossText(d.loss) })
      : d.kind === 'loss_not_finite'
        ? tr('lossNotFinite', { value: lossText(d.loss) })
        : d.kind === 'gradient_not_finite'
          ? tr('gradientNotFinite')
          : tr('parametersNotFinite');
  return tr('divergedAt', { step: d.step, cause, lr });
}
