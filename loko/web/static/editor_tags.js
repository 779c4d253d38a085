// The editor's tags: add a tag to, or remove it from, the selected keys (one bulk change,
// undoable from the Undo page), and keep each row's tag chips up to date. Without script the
// tags show on each row and the filter form narrows by them.
(function () {
  "use strict";
  const _ = (message, values) => window.Loko._(message, values);
  const ngettext = (singular, plural, count, values) => window.Loko.ngettext(singular, plural, count, values);

  const root = document.getElementById("editor");
  if (!root || !root.dataset.tagsApi) return;
  const tbody = document.getElementById("editor-rows");
  const input = root.querySelector("[data-bulk-tag]");
  const addButton = root.querySelector("[data-tag-add]");
  const removeButton = root.querySelector("[data-tag-remove]");
  const status = root.querySelector("[data-status]");
  if (!tbody || !input || !addButton || !removeButton) return;
  const TAG = /^[\p{L}\p{N}][\p{L}\p{N}_.:-]{0,49}$/u;

  function selectedRows() {
    return Array.from(tbody.querySelectorAll("[data-select]:checked:not(:disabled)")).map((box) =>
      box.closest("tr")
    );
  }

  function refresh() {
    const none = selectedRows().length === 0 || input.value.trim() === "";
    addButton.disabled = none;
    removeButton.disabled = none;
  }

  function setChips(row, tag, present) {
    const box = row.querySelector("[data-tags]");
    if (!box) return;
    const names = new Set(Array.from(box.querySelectorAll(".tag"), (chip) => chip.textContent));
    if (present) names.add(tag);
    else names.delete(tag);
    box.textContent = "";
    for (const name of Array.from(names).sort()) {
      const chip = document.createElement("span");
      chip.className = "tag";
      chip.textContent = name;
      box.append(chip);
    }
  }

  function say(text, operationId) {
    status.textContent = text;
    if (operationId) {
      status.append(" ");
      const link = document.createElement("a");
      link.href = `${root.dataset.undoUrl}?operation=${encodeURIComponent(operationId)}`;
      link.textContent = _("Undo");
      link.setAttribute("data-undo-tags", "");
      status.append(link);
    }
  }

  async function change(adding) {
    const tag = input.value.trim();
    const rows = selectedRows();
    if (!TAG.test(tag)) {
      say(_("A tag is 1 to 50 letters, digits and . _ - :, beginning with a letter or a digit."));
      input.focus();
      return;
    }
    if (rows.length === 0) return;
    const body = { ids: rows.map((row) => row.dataset.id) };
    body[adding ? "add" : "remove"] = [tag];
    let result;
    try {
      result = await Loko.api("POST", root.dataset.tagsApi, body);
    } catch (error) {
      result = { ok: false, status: 0, data: { error: _("The server could not be reached.") } };
    }
    if (!result.ok) {
      say((result.data && result.data.error) || _("Tags not changed (error %(status)s).", { status: result.status }));
      return;
    }
    rows.forEach((row) => setChips(row, tag, adding));
    const count = adding ? result.data.added : result.data.removed;
    const done = adding
      ? ngettext("Tag %(tag)s added to %(num)s key.", "Tag %(tag)s added to %(num)s keys.", count, { tag })
      : ngettext("Tag %(tag)s removed from %(num)s key.", "Tag %(tag)s removed from %(num)s keys.", count, { tag });
    say(done, result.data.operationId);
  }

  tbody.addEventListener("change", refresh);
  root.addEventListener("change", (event) => {
    if (event.target.matches("[data-select-all]")) refresh();
  });
  input.addEventListener("input", refresh);
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      if (!addButton.disabled) change(true);
    }
  });
  addButton.addEventListener("click", () => change(true));
  removeButton.addEventListener("click", () => change(false));
  refresh();
})();
