// The English words a person would see in the Chinese interface: the text and the labels read
// out, outside the places where English stays English (formulas, the models' tokens and names,
// the input, units). Used by the sweep over every view (every-view.test.mjs).

// Where English stays English: what the models read and write (tokens, examples, the input),
// formulas (KaTeX), the heatmaps' SVG labels, numbers in code, the scene's words.
const UNTRANSLATED = [
  'svg',
  '.katex',
  'code',
  'input',
  'textarea',
  'option',
  '.tokens',
  '.chip',
  '.mono',
  '.topk .tok',
  '.bars .label',
  'table th[scope=row]',
  'table thead th',
  '[data-testid=beams] .tokens',
  '.examples',
  'q',
  '[translate=no]',
].join(', ');

// Words that are the same in both interfaces: names, units, key names, the functions of formulas,
// the running example's tokens. Text in “quotes” is quoted material (an input, a token) and is not
// counted either.
const ALLOWED = new Set(
  (
    'Attention Playground WebAssembly C++ softmax GRU BiGRU Transformer Bahdanau Luong Tom Jerry ' +
    'Query Key Value JSON CSV SVG PNG ISO safetensors IndexedDB Worker Web Audio Python NumPy ' +
    'log exp max tanh cos LayerNorm FFN nats Hz kHz KB dq dk da dh Softmax Home End chase RNN Adam English ' +
    'accuracyByLength'
  ).split(' '),
);
const SCORES = 'dot|scaled_dot|general|additive|cosine|scaled_cosine|location|none';
// (and a task's encoder–decoder Transformer, "zh-transformer")
const MODEL_NAME = new RegExp(
  `\\b(((dates|zh|reverse|scenes|speech)-)?(${SCORES})(-(bahdanau|luong))?(-transformer)?|(dates|zh|reverse)-transformer)\\b`,
  'g',
);

/** The English words the person sees (text and the labels read out), outside the allowed places. */
function englishLeft(page) {
  return page.evaluate((untranslated) => {
    const texts = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!el || el.closest(untranslated) || el.closest('[hidden], script, style')) continue;
      if (!el.checkVisibility?.() && !el.closest('.visually-hidden')) continue;
      texts.push(node.textContent ?? '');
    }
    for (const el of document.querySelectorAll('[aria-label], [title], [placeholder], [alt]'))
      if (!el.closest(untranslated))
        for (const name of ['aria-label', 'title', 'placeholder', 'alt'])
          if (el.hasAttribute(name)) texts.push(el.getAttribute(name) ?? '');
    return texts;
  }, UNTRANSLATED);
}

function wordsOf(texts) {
  const left = new Set();
  for (const text of texts)
    for (const word of text
      .replace(/“[^”]*”/g, ' ')
      // the vocabularies' own tokens: <s>, </s>, <unk>, <pad>
      .replace(/<\/?[a-z]+>/g, ' ')
      .replace(MODEL_NAME, ' ')
      .match(/[A-Za-z][A-Za-z']+/g) ?? [])
      if (!ALLOWED.has(word) && !/^[a-z]$/i.test(word)) left.add(word);
  return [...left];
}

/** The English words of the page as it is now, outside the allow-list. */
export const englishWords = async (page) => wordsOf(await englishLeft(page));
