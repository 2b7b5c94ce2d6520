// The one stepper of the stepping views (Decode, Caption, Listen): which of the answer's steps is
// shown, and play (one step every `speed` ms to the last). The view's answer gives the count; the
// step bar, the keys, the output so far and the link all move this one object.

export class Stepper {
  /** the step shown, from 0 */
  step = $state(0);
  playing = $state(false);
  /** ms per step while playing */
  speed = $state(700);

  /**
   * @param {() => number} count how many steps the answer shown has
   * @param {{ speed?: number }} [options]
   */
  constructor(count, { speed = 700 } = {}) {
    this.count = count;
    this.speed = speed;
  }

  /** the last step's index (0 while there is no answer) */
  get last() {
    return Math.max(0, this.count() - 1);
  }

  /** Shows step `i`, kept within the answer's steps. */
  goTo = (/** @type {number} */ i) => {
    this.step = Math.max(0, Math.min(i, this.last));
  };

  /** Keeps the step shown within a new answer's steps. */
  clamp = () => this.goTo(this.step);

  /** Play or pause; play from the start when the last step is showing. */
  togglePlay = () => {
    if (!this.playing && this.step >= this.last) this.goTo(0);
    this.playing = !this.playing;
  };

  /** One step of play: the next step, or the end of play at the last one. */
  advance = () => {
    if (this.step >= this.last) this.playing = false;
    else this.goTo(this.step + 1);
  };
}
