/**
 * An attachment, `{@attach nearScreen(margin, set)}`: calls set(true) when the element comes within
 * `margin` px (above or below) of the viewport and set(false) when it leaves, so a part of the page
 * can leave work undone while it cannot be seen.
 * @param {number} margin
 * @param {(near: boolean) => void} set
 */
export function nearScreen(margin, set) {
  return (/** @type {Element} */ element) => {
    const observer = new IntersectionObserver(([entry]) => set(entry.isIntersecting), {
      rootMargin: `${margin}px 0px`,
    });
    observer.observe(element);
    return () => observer.disconnect();
  };
}
