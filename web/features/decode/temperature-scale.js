// The τ slider's scale: log10 τ in hundredths of a decade. A range input takes only min + k·step,
// so its ends are put on that grid (log10 of the float32 1e-3 is −2.99999998, from which the last
// value reachable below 3 was 10^2.99 ≈ 977) and mapped onto the engine's limits exactly.

export const TAU_STEP = 0.01;

const onGrid = (x) => Number((Math.round(x / TAU_STEP) * TAU_STEP).toFixed(2));

/**
 * The slider over the engine's τ range [minTau, maxTau] (limits()).
 * @param {number} minTau
 * @param {number} maxTau
 */
export function temperatureScale(minTau, maxTau) {
  const min = onGrid(Math.log10(minTau));
  const max = onGrid(Math.log10(maxTau));
  return {
    min,
    max,
    step: TAU_STEP,
    /** where τ stands on the slider */
    position: (/** @type {number} */ tau) => Math.log10(tau),
    /** the τ a position asks for: three significant digits, the ends the engine's limits */
    tau(/** @type {number} */ position) {
      if (position >= max) return maxTau;
      if (position <= min) return minTau;
      return Math.min(maxTau, Math.max(minTau, Number((10 ** position).toPrecision(3))));
    },
  };
}
