// The page's state in the address's hash (replaceState), so a reload or a shared link restores it.
import { captionLink } from '../../features/caption/caption.svelte.js';
import { choice, nav } from '../text/choice.svelte.js';
import { exampleSandbox } from '../../features/sandbox/example.js';
import { decodeDefaults } from '../text/initial.js';
import { sandbox } from '../../features/sandbox/sandbox.svelte.js';
import { selfAttention } from '../../features/self/self-attention.svelte.js';
import { writeUrl } from './url.js';

// a field equal to what the page starts from without a link is left out of the link
const defaults = { decode: decodeDefaults, sandbox: exampleSandbox() };

export function syncUrl() {
  const { kind, temperature, scale, query, tokens } = sandbox;
  const { layer, head, token } = selfAttention;
  writeUrl(
    { view: nav.view, kind, temperature, scale, query, tokens },
    {
      ...choice,
      step: nav.step,
      reveal: nav.reveal,
      selfAttention: [layer, head, token],
      caption: captionLink(),
    },
    defaults,
  );
}
