// The text box of the input Decode and Self-attention share (choice.input): what is typed is kept
// as a draft and taken once the keys pause (Enter takes it at once), and the draft follows the
// input whenever something else sets it (a link, an example, the other view).
import { choice } from './choice.svelte.js';
import { setInputNow, setInputSoon } from './decode.svelte.js';

/** Made while a component starts (its effect is the component's). */
export class InputDraft {
  text = $state(choice.input);

  constructor() {
    $effect(() => {
      this.text = choice.input;
    });
  }

  /** @param {Event & { currentTarget: HTMLInputElement }} event */
  oninput = (event) => {
    this.text = event.currentTarget.value;
    setInputSoon(this.text);
  };

  /** @param {KeyboardEvent} event */
  onkeydown = (event) => {
    if (event.key === 'Enter') setInputNow(this.text);
  };
}
