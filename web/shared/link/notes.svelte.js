// What a hand-edited or stale link asked for that the page cannot show, each note saying what it
// shows instead: from reading the link (link.svelte.js) and from the checks that need the
// checkpoints or a decode (a model not shipped, a step past the end, a token id the model does
// not have).

export const linkNotes = $state({
  list: /** @type {(string | import('../i18n/translate.js').Text)[]} */ ([]),
});

/** @param {string | import('../i18n/translate.js').Text} text (a Text is written in the language shown) */
export function noteLink(text) {
  if (!linkNotes.list.some((note) => String(note) === String(text))) linkNotes.list.push(text);
}

export function dismissLinkNotes() {
  linkNotes.list = [];
}
