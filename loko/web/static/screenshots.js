// A screenshot's page. Drag on the picture to draw a key's region: the rectangle drawn, in
// the image's pixels, fills the "Place a key" form, and the Key field takes the focus. Drag
// a region to move it, or one of the handles of the region chosen to resize it; from the
// keyboard, a region is a control of its own: the arrow keys move it, with Shift they
// resize it. Each change is saved through the REST API (PATCH of the region); the region's
// form of numbers stays the way to do the same without this script.
(function () {
  "use strict";
  const _ = (message, values) => window.Loko._(message, values);
  const picture = document.querySelector("figure.screenshot svg[data-drawable]");
  const form = document.getElementById("place-form");
  if (!picture || !form || !window.Loko) return;
  const Loko = window.Loko;
  const SVG = "http://www.w3.org/2000/svg";
  const NAMES = ["x", "y", "width", "height"];
  const fields = {};
  for (const name of NAMES) fields[name] = form.elements[name];
  const box = picture.viewBox.baseVal;
  const status = document.querySelector("[data-region-status]");
  const drawn = document.createElementNS(SVG, "rect");
  drawn.setAttribute("class", "region drawn");
  drawn.setAttribute("aria-hidden", "true");
  // Resize handles of the region chosen: which edges each one moves.
  const HANDLES = ["nw", "n", "ne", "e", "se", "s", "sw", "w"];
  const handles = document.createElementNS(SVG, "g");
  handles.setAttribute("class", "handles");
  handles.setAttribute("aria-hidden", "true");
  for (const side of HANDLES) {
    const handle = document.createElementNS(SVG, "rect");
    handle.setAttribute("class", `handle ${side}`);
    handle.dataset.handle = side;
    handles.appendChild(handle);
  }
  let chosen = null; // the region whose handles show
  let drag = null; // {kind: "draw"|"move"|"resize", ...} while the pointer is down
  const saved = new WeakMap(); // region -> its rectangle as the server has it
  const timers = new WeakMap(); // region -> the pending save of its keyboard changes

  function point(event) {
    const matrix = picture.getScreenCTM().inverse();
    const at = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix);
    return {
      x: Math.round(Math.min(Math.max(at.x, 0), box.width)),
      y: Math.round(Math.min(Math.max(at.y, 0), box.height)),
    };
  }

  function between(a, b) {
    return {
      x: Math.min(a.x, b.x),
      y: Math.min(a.y, b.y),
      width: Math.max(Math.abs(a.x - b.x), 1),
      height: Math.max(Math.abs(a.y - b.y), 1),
    };
  }

  // The rectangle kept within the image, at least a pixel each way.
  function within(r) {
    const width = Math.min(Math.max(Math.round(r.width), 1), box.width);
    const height = Math.min(Math.max(Math.round(r.height), 1), box.height);
    return {
      x: Math.min(Math.max(Math.round(r.x), 0), box.width - width),
      y: Math.min(Math.max(Math.round(r.y), 0), box.height - height),
      width,
      height,
    };
  }

  function rectangleOf(element) {
    const r = {};
    for (const name of NAMES) r[name] = parseInt(element.getAttribute(name), 10);
    return r;
  }

  function place(element, r) {
    for (const name of NAMES) element.setAttribute(name, r[name]);
  }

  function show(r) {
    place(drawn, r);
    if (!drawn.isConnected) picture.appendChild(drawn);
  }

  // -- The region chosen and its handles --------------------------------------------------

  function regions() {
    return Array.from(picture.querySelectorAll("rect[data-region]"));
  }

  function describe(region) {
    const r = rectangleOf(region);
    const values = { name: region.dataset.name, x: r.x, y: r.y, width: r.width, height: r.height };
    return region.classList.contains("proposed")
      ? _("%(name)s, proposed: left %(x)s, top %(y)s, %(width)s × %(height)s", values)
      : _("%(name)s: left %(x)s, top %(y)s, %(width)s × %(height)s", values);
  }

  function drawHandles() {
    if (!chosen) {
      handles.remove();
      return;
    }
    // About ten screen pixels whatever the picture's scale.
    const scale = box.width / (picture.getBoundingClientRect().width || box.width);
    const size = Math.max(4, Math.round(10 * scale));
    const r = rectangleOf(chosen);
    const xs = { w: r.x, "": r.x + r.width / 2, e: r.x + r.width };
    const ys = { n: r.y, "": r.y + r.height / 2, s: r.y + r.height };
    for (const handle of handles.children) {
      const side = handle.dataset.handle;
      const vertical = side.match(/[ns]/) ? side.match(/[ns]/)[0] : "";
      const horizontal = side.match(/[ew]/) ? side.match(/[ew]/)[0] : "";
      place(handle, { x: xs[horizontal] - size / 2, y: ys[vertical] - size / 2, width: size, height: size });
    }
    picture.appendChild(handles);
  }

  function choose(region) {
    if (chosen && chosen !== region) chosen.classList.remove("chosen");
    chosen = region;
    if (region) {
      region.classList.add("chosen");
      if (!saved.has(region)) saved.set(region, rectangleOf(region));
    }
    drawHandles();
  }

  picture.addEventListener("focusin", (event) => {
    if (event.target.matches("rect[data-region]")) choose(event.target);
  });
  window.addEventListener("resize", drawHandles);

  // -- Saving -------------------------------------------------------------------------------

  function say(text, problem = false) {
    status.textContent = text;
    status.classList.toggle("error", problem);
  }

  function rowOf(region) {
    return document.querySelector(`[data-region-row="${CSS.escape(region.dataset.region)}"]`);
  }

  // The page's other copies of the rectangle (the table, the region's form) follow it.
  function showSaved(region, r) {
    region.setAttribute("aria-label", describe(region));
    const row = rowOf(region);
    if (!row) return;
    row.querySelector("[data-where]").textContent = `${r.x}, ${r.y}, ${r.width} × ${r.height}`;
    const numbers = row.querySelector("[data-move-form]");
    if (numbers) for (const name of NAMES) numbers.elements[name].value = r[name];
  }

  async function save(region) {
    const r = rectangleOf(region);
    const before = saved.get(region);
    if (before && NAMES.every((name) => before[name] === r[name])) return;
    say(_("Saving %(name)s…", { name: region.dataset.name }));
    const url = `${picture.dataset.regionsApi}/${encodeURIComponent(region.dataset.region)}`;
    let result;
    try {
      result = await Loko.api("PATCH", url, r);
    } catch (error) {
      result = { ok: false, status: 0, data: { error: _("the server could not be reached") } };
    }
    if (!result.ok) {
      if (before) place(region, before);
      if (region === chosen) drawHandles();
      const message = result.data && result.data.error;
      say(message ? _("Not saved: %(message)s", { message }) : _("Not saved (error %(status)s).", { status: result.status }), true);
      return;
    }
    const answer = result.data.region;
    const now = { x: answer.x, y: answer.y, width: answer.width, height: answer.height };
    saved.set(region, now);
    place(region, now);
    if (region === chosen) drawHandles();
    showSaved(region, now);
    say(_("Saved %(name)s: left %(x)s, top %(y)s, %(width)s × %(height)s.", { name: region.dataset.name, x: now.x, y: now.y, width: now.width, height: now.height }));
  }

  // Keys pressed one after another are saved once, when they stop.
  function saveSoon(region) {
    clearTimeout(timers.get(region));
    timers.set(
      region,
      setTimeout(() => {
        timers.delete(region);
        save(region);
      }, 600)
    );
  }

  // -- The keyboard ------------------------------------------------------------------------

  const STEPS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

  picture.addEventListener("keydown", (event) => {
    const region = event.target.closest("rect[data-region]");
    if (!region || event.altKey || event.metaKey) return;
    if (STEPS[event.key]) {
      event.preventDefault();
      const [dx, dy] = STEPS[event.key].map((step) => step * (event.ctrlKey ? 10 : 1));
      const r = rectangleOf(region);
      if (!saved.has(region)) saved.set(region, { ...r });
      const next = event.shiftKey
        ? within({ ...r, width: r.width + dx, height: r.height + dy })
        : within({ ...r, x: r.x + dx, y: r.y + dy });
      place(region, next);
      region.setAttribute("aria-label", describe(region));
      drawHandles();
      saveSoon(region);
    } else if (event.key === "Enter" || event.key === " ") {
      // The region's numbers, to type them.
      const row = rowOf(region);
      const numbers = row && row.querySelector("details.move-region");
      if (!numbers) return;
      event.preventDefault();
      numbers.open = true;
      numbers.querySelector("input[name=x]").focus();
    } else if (event.key === "Escape") {
      choose(null);
    }
  });
  picture.addEventListener("focusout", (event) => {
    const region = event.target.closest("rect[data-region]");
    if (region && timers.has(region)) {
      clearTimeout(timers.get(region));
      timers.delete(region);
      save(region);
    }
  });

  // -- The mouse: draw, move, resize -------------------------------------------------------

  picture.addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return;
    event.preventDefault();
    picture.setPointerCapture(event.pointerId);
    const at = point(event);
    const handle = event.target.closest("[data-handle]");
    const region = event.target.closest("rect[data-region]");
    if (handle && chosen) {
      drag = { kind: "resize", region: chosen, side: handle.dataset.handle, from: rectangleOf(chosen), at };
    } else if (region) {
      region.focus();
      choose(region);
      drag = { kind: "move", region, from: rectangleOf(region), at };
    } else {
      choose(null);
      drag = { kind: "draw", at };
      show(between(at, at));
    }
  });

  // Where the region dragged is now.
  function dragged(drag, event) {
    const at = point(event);
    const dx = at.x - drag.at.x;
    const dy = at.y - drag.at.y;
    const r = { ...drag.from };
    if (drag.kind === "move") return within({ ...r, x: r.x + dx, y: r.y + dy });
    // Resizing: the edges the handle names move, the others stay; never past each other.
    let left = r.x;
    let top = r.y;
    let right = r.x + r.width;
    let bottom = r.y + r.height;
    if (drag.side.includes("w")) left = Math.min(left + dx, right - 1);
    if (drag.side.includes("e")) right = Math.max(right + dx, left + 1);
    if (drag.side.includes("n")) top = Math.min(top + dy, bottom - 1);
    if (drag.side.includes("s")) bottom = Math.max(bottom + dy, top + 1);
    left = Math.max(left, 0);
    top = Math.max(top, 0);
    right = Math.min(right, box.width);
    bottom = Math.min(bottom, box.height);
    return { x: left, y: top, width: right - left, height: bottom - top };
  }

  picture.addEventListener("pointermove", (event) => {
    if (!drag) return;
    if (drag.kind === "draw") {
      show(between(drag.at, point(event)));
      return;
    }
    place(drag.region, dragged(drag, event));
    drawHandles();
  });

  picture.addEventListener("pointerup", (event) => {
    if (!drag) return;
    const done = drag;
    drag = null;
    if (done.kind === "draw") {
      const r = between(done.at, point(event));
      show(r);
      for (const name in r) fields[name].value = r[name];
      form.elements.key.focus();
      return;
    }
    const r = dragged(done, event);
    place(done.region, r);
    drawHandles();
    if (!saved.has(done.region)) saved.set(done.region, done.from);
    save(done.region);
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

  for (const region of regions()) saved.set(region, rectangleOf(region));
})();
