// The editor's find and replace: a preview (dryRun) over the view's filter lists each value
// that would change, each with a checkbox, all ticked; the apply writes the ticked ones as
// one operation, updates the cells shown and offers its undo. Refused, timed-out and skipped
// values are listed and never written.
(function () {
  "use strict";
  const _ = (message, values) => window.Loko._(message, values);
  const ngettext = (singular, plural, count, values) => window.Loko.ngettext(singular, plural, count, values);

  const root = document.getElementById("editor");
  const dialog = document.getElementById("editor-replace");
  const opener = root && root.querySelector("[data-open-replace]");
  if (!root || !dialog || !opener || typeof dialog.showModal !== "function") return;
  const form = dialog.querySelector("[data-replace-form]");
  const status = dialog.querySelector("[data-replace-status]");
  const results = dialog.querySelector("[data-replace-results]");
  const rows = dialog.querySelector("[data-replace-rows]");
  const all = dialog.querySelector("[data-replace-all]");
  const refusedBox = dialog.querySelector("[data-replace-refused]");
  const apply = dialog.querySelector("[data-replace-apply]");
  const filter = JSON.parse(dialog.dataset.replaceFilter || "{}");
  let request = null; // the body of the preview shown
  let changes = [];

  function say(text, operationId) {
    status.textContent = text;
    if (operationId) {
      status.append(" ");
      const link = document.createElement("a");
      link.href = `${dialog.dataset.undoUrl}?operation=${encodeURIComponent(operationId)}`;
      link.textContent = _("Undo this replacement");
      link.setAttribute("data-replace-undo", "");
      status.append(link);
    }
  }

  async function send(body) {
    try {
      return await Loko.api("POST", dialog.dataset.replaceApi, body);
    } catch (error) {
      return { ok: false, status: 0, data: { error: _("The server could not be reached.") } };
    }
  }

  function cell(text, className) {
    const td = document.createElement("td");
    td.textContent = text;
    if (className) td.className = className;
    return td;
  }

  function ticked() {
    return Array.from(rows.querySelectorAll("[data-change]:checked"), (box) => changes[Number(box.dataset.change)]);
  }

  function refreshApply() {
    const count = ticked().length;
    apply.disabled = count === 0;
    apply.textContent =
      count === 1
        ? _("Replace in the ticked value")
        : ngettext("Replace in the %(num)s ticked value", "Replace in the %(num)s ticked values", count);
    const boxes = rows.querySelectorAll("[data-change]").length;
    all.checked = boxes > 0 && count === boxes;
    all.indeterminate = count > 0 && count < boxes;
  }

  function listed(title, items, reasonOf) {
    if (!items.length) return null;
    const box = document.createElement("div");
    box.className = "replace-refused";
    const heading = document.createElement("h3");
    heading.textContent = title;
    const list = document.createElement("ul");
    for (const item of items) {
      const entry = document.createElement("li");
      entry.textContent = `${item.fileName || ""} ${item.key || ""} (${item.language}): ${reasonOf(item)}`;
      list.append(entry);
    }
    box.append(heading, list);
    return box;
  }

  function showLists(answer) {
    refusedBox.textContent = "";
    const parts = [
      listed(_("Not replaced: the result would be refused"), answer.refused || [], (item) => item.reason),
      listed(_("Not replaced: the matching took too long"), answer.timedOut || [], () => _("left as it is")),
      listed(_("Skipped"), answer.skipped || [], (item) =>
        item.reason === "changed" ? _("changed since the preview") : item.reason
      ),
    ];
    parts.filter(Boolean).forEach((part) => refusedBox.append(part));
  }

  function showPreview(answer) {
    changes = answer.changes;
    rows.textContent = "";
    changes.forEach((change, index) => {
      const row = document.createElement("tr");
      const pick = document.createElement("td");
      const box = document.createElement("input");
      box.type = "checkbox";
      box.checked = true;
      box.dataset.change = String(index);
      box.setAttribute("aria-label", _("Replace in %(key)s (%(language)s)", { key: change.key, language: change.language }));
      pick.append(box);
      row.append(
        pick,
        cell(`${change.key} · ${change.fileName}`),
        cell(change.language),
        cell(change.before, "before"),
        cell(change.after, "after")
      );
      rows.append(row);
    });
    results.hidden = false;
    apply.hidden = changes.length === 0;
    showLists(answer);
    const count = answer.nextCursor
      ? ngettext(
          "%(num)s value would change (the first page: apply it, then preview again for the rest).",
          "%(num)s values would change (the first page: apply it, then preview again for the rest).",
          changes.length
        )
      : ngettext("%(num)s value would change.", "%(num)s values would change.", changes.length);
    say(changes.length ? count : _("No value would change."));
    refreshApply();
  }

  opener.hidden = false;
  opener.addEventListener("click", () => {
    dialog.showModal();
    form.elements.find.focus();
  });

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const fields = form.elements;
    request = {
      ...filter,
      find: fields.find.value,
      replace: fields.replace.value,
      mode: fields.regex.checked ? "regex" : "text",
      matchCase: fields.matchCase.checked,
      wholeWord: fields.wholeWord.checked,
    };
    say(_("Looking…"));
    const result = await send({ ...request, dryRun: true });
    if (!result.ok) {
      results.hidden = true;
      say((result.data && result.data.error) || _("No preview (error %(status)s).", { status: result.status }));
      return;
    }
    showPreview(result.data);
  });

  rows.addEventListener("change", refreshApply);
  all.addEventListener("change", () => {
    rows.querySelectorAll("[data-change]").forEach((box) => (box.checked = all.checked));
    refreshApply();
  });

  apply.addEventListener("click", async () => {
    const chosen = ticked();
    if (!request || chosen.length === 0) return;
    const items = chosen.map((change) => ({
      translationId: change.translationId,
      language: change.language,
      expected: change.before,
    }));
    apply.disabled = true;
    const result = await send({ ...request, dryRun: false, items });
    if (!result.ok) {
      say((result.data && result.data.error) || _("Nothing replaced (error %(status)s).", { status: result.status }));
      refreshApply();
      return;
    }
    const answer = result.data;
    const left = new Set(
      [...answer.skipped, ...answer.refused, ...answer.timedOut].map((item) => `${item.translationId} ${item.language}`)
    );
    for (const change of chosen) {
      if (left.has(`${change.translationId} ${change.language}`)) continue;
      const value = root.querySelector(
        `#editor-rows tr[data-id="${CSS.escape(change.translationId)}"] td[data-l="${CSS.escape(change.language)}"] .t`
      );
      if (value) value.textContent = change.after;
    }
    rows.textContent = "";
    changes = [];
    apply.hidden = true;
    showLists(answer);
    const count = ngettext("%(num)s value replaced.", "%(num)s values replaced.", answer.applied);
    say(count, answer.operationId);
  });
})();
