// @ts-check
/**
 * The calculation sheet's title block (where the page has one): its boxes start from the page's
 * address and write back to it as they change, and its printed copy at the head of the sheet
 * follows them.
 */

export function setupTitleBlock() {
  const block = document.getElementById("title-block");
  const sheet = document.getElementById("title-block-sheet");
  if (!block || !sheet) return;
  const boxes = [...block.querySelectorAll("input")];
  const params = new URLSearchParams(location.search);
  for (const box of boxes) box.value = params.get(box.name) ?? "";

  const show = () => {
    for (const box of boxes) {
      const slot = sheet.querySelector(`[data-for="${box.name}"]`);
      if (slot) slot.textContent = box.value;
    }
  };
  show();
  block.addEventListener("input", () => {
    const next = new URLSearchParams(location.search);
    for (const box of boxes) {
      if (box.value === "") next.delete(box.name);
      else next.set(box.name, box.value);
    }
    const query = next.toString();
    history.replaceState(null, "", `${location.pathname}${query ? `?${query}` : ""}${location.hash}`);
    show();
  });
}
