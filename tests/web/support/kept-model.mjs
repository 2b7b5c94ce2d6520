// A whole record of a model kept in the browser (web/shared/models/saved-models.js), for the tests
// that write the store themselves: the node tests of its reading and the browser test of a
// damaged store.

/** A trained zh model's record with id `id`, its fields overridden by `more`. */
export const keptModel = (id, more = {}) => ({
  id,
  label: 'zh · dot · step 40',
  task: 'zh',
  score: 'dot',
  style: 'bahdanau',
  encoder: 'gru',
  step: 40,
  heldoutExactMatch: 0.5,
  bytes: 3,
  created: 1,
  origin: 'trained',
  ...more,
});
