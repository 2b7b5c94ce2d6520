// The three trained tasks, their examples, and the checkpoints the page can offer for them.
export const SCORES = ['dot', 'scaled_dot', 'general', 'additive', 'cosine', 'scaled_cosine'];
export const STYLES = ['bahdanau', 'luong'];

export const tasks = [
  {
    id: 'zh',
    label: 'English → Chinese',
    what: 'a sentence (lower-case words)',
    examples: [
      'tom chase jerry',
      'tom chased jerry in the kitchen yesterday',
      'the cat ate its fish',
      'tom said that he was hungry',
    ],
  },
  {
    id: 'dates',
    label: 'Dates → ISO 8601',
    what: 'a date',
    examples: ['29 november 2026', '11/29/26', 'sunday, 29 nov. 2026', '2026-11-29'],
  },
  {
    id: 'reverse',
    label: 'Reverse letters',
    what: '3–15 letters from a to j, no spaces',
    examples: ['abcdefj', 'jihgabc', 'aabbccdd'],
  },
];

export const task = (id) => tasks.find((t) => t.id === id) ?? tasks[0];

/** "dates-additive-bahdanau" */
export const modelName = (taskId, score, style) => `${taskId}-${score}-${style}`;

/** The score and style of a model name, or null for a name that is not one. */
export function parseModelName(name) {
  const match =
    /^(dates|zh|reverse)-(dot|scaled_dot|general|additive|cosine|scaled_cosine)-(bahdanau|luong)$/.exec(name);
  return match ? { task: match[1], score: match[2], style: match[3] } : null;
}
