// Own pairs and the kept models each take a file two ways, dropped on them or picked, and behave
// the same: the first file goes to `take`, and `dragging` is true while a file is held over the
// target (its outline).
export class FileDrop {
  dragging = $state(false);

  /** @param {(file: File) => unknown} take */
  constructor(take) {
    this.take = take;
  }

  /** @param {DragEvent} event */
  ondragover = (event) => {
    event.preventDefault();
    this.dragging = true;
  };

  ondragleave = () => {
    this.dragging = false;
  };

  /** @param {DragEvent} event */
  ondrop = (event) => {
    event.preventDefault();
    this.dragging = false;
    const file = event.dataTransfer?.files?.[0];
    if (file) void this.take(file);
  };

  // the input is emptied, so that picking the same file again is a change too
  /** @param {Event & { currentTarget: HTMLInputElement }} event */
  onpick = (event) => {
    const file = event.currentTarget.files?.[0];
    if (file) void this.take(file);
    event.currentTarget.value = '';
  };
}
