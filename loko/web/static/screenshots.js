// A screenshot's page: drag on the picture to draw a key's region. The rectangle drawn, in
// the image's pixels, fills the "Place a key" form (which stays the way to type it, or to
// change it from the keyboard), and the Key field takes the focus.
(function () {
  "use strict";
  const picture = document.querySelector("figure.screenshot svg[data-drawable]");
  const form = document.getElementById("place-form");
  if (!picture || !form) return;
  const fields = {};
  for (const name of ["x", "y", "width", "height"]) fields[name] = form.elements[name];
  const box = picture.viewBox.baseVal;
  const drawn = document.createElementNS("http://www.w3.org/2000/svg", "rect");
  drawn.setAttribute("class", "region drawn");
  let start = null;

  function point(event) {
    const matrix = picture.getScreenCTM().inverse();
    const at = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix);
    return {
      x: Math.round(Math.min(Math.max(at.x, 0), box.width)),
      y: Math.round(Math.min(Math.max(at.y, 0), box.height)),
    };
  }

  function rectangle(a, b) {
    return {
      x: Math.min(a.x, b.x),
      y: Math.min(a.y, b.y),
      width: Math.max(Math.abs(a.x - b.x), 1),
      height: Math.max(Math.abs(a.y - b.y), 1),
    };
  }

  function show(r) {
    for (const name in r) drawn.setAttribute(name, r[name]);
    if (!drawn.isConnected) picture.appendChild(drawn);
  }

  picture.addEventListener("pointerdown", function (event) {
    if (event.button !== 0) return;
    event.preventDefault();
    picture.setPointerCapture(event.pointerId);
    start = point(event);
    show(rectangle(start, start));
  });
  picture.addEventListener("pointermove", function (event) {
    if (start) show(rectangle(start, point(event)));
  });
  picture.addEventListener("pointerup", function (event) {
    if (!start) return;
    const r = rectangle(start, point(event));
    start = null;
    show(r);
    for (const name in r) fields[name].value = r[name];
    form.elements.key.focus();
  });
  // Typing the numbers moves the drawn rectangle with them.
  form.addEventListener("input", function () {
    const r = {};
    for (const name in fields) {
      const value = parseInt(fields[name].value, 10);
      if (Number.isNaN(value)) return;
      r[name] = value;
    }
    show(r);
  });
})();
