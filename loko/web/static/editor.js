// The translation editor: values edited in place and saved through the JSON API (never a
// page reload), keyboard moves, placeholder checks, edit conflicts, new keys, the trash,
// key details and more rows. Values only ever reach the page as text (textContent), never
// as markup. Without this script the editor is a read-only paged table.
(function () {
  "use strict";
  const _ = (message, values) => window.Loko._(message, values);
  const ngettext = (singular, plural, count, values) => window.Loko.ngettext(singular, plural, count, values);
  // What happened to a value, as the history's answer names it, in the page's language.
  function historyAction(action) {
    const words = {
      created: _("created"),
      updated: _("updated"),
      deleted: _("deleted"),
      restored: _("restored"),
      purged: _("purged"),
      renamed: _("renamed"),
    };
    return Object.prototype.hasOwnProperty.call(words, action) ? words[action] : action;
  }

  const root = document.getElementById("editor");
  if (!root || !window.Loko) return;
  if (showChosenLanguages()) return;
  const Loko = window.Loko;
  const api = root.dataset.api;
  const canEdit = root.dataset.canEdit === "true";
  // Keys themselves (adding, selecting, the trash): rights in every language.
  const canManage = root.dataset.canManage === "true";
  const source = root.dataset.source;
  const rightToLeft = new Set((root.dataset.rtl || "").split(" ").filter(Boolean));
  const tbody = document.getElementById("editor-rows");
  const grid = document.getElementById("editor-grid");
  const status = root.querySelector("[data-status]");
  const stored = new WeakMap(); // cell -> {value: string|null, inherited: string|null}
  const edits = new WeakMap(); // cell -> {textarea, note, start, expected, confirmed, box}
  const saving = new WeakMap(); // cell -> {reopen: boolean}, while its save awaits the answer
  let pendingSaves = 0;

  // -- The languages shown ---------------------------------------------------------------

  // The languages a person chose (the source and the others) are theirs in this project, in
  // this browser: an address that names none opens on them. True when the page is left
  // for the address naming them.
  function showChosenLanguages() {
    const memory = root.dataset.remember;
    if (!memory) return false;
    const params = new URLSearchParams(window.location.search);
    const [shownSource, ...shown] = (root.dataset.shown || "").split(" ").filter(Boolean);
    try {
      if (params.has("source") || params.has("lang")) {
        if (shownSource) localStorage.setItem(memory, JSON.stringify({ source: shownSource, lang: shown }));
        return false;
      }
      const chosen = JSON.parse(localStorage.getItem(memory) || "null");
      if (!chosen || !chosen.source) return false;
      if (chosen.source === shownSource && chosen.lang.join(" ") === shown.join(" ")) return false;
      params.set("source", chosen.source);
      for (const code of chosen.lang) params.append("lang", code);
      window.location.replace(`${window.location.pathname}?${params}`);
      return true;
    } catch (error) {
      return false; // no storage in this browser: the default languages
    }
  }

  // -- Placeholders ------------------------------------------------------------------------

  const PLACEHOLDER = new RegExp(
    [
      "%%", // an escaped percent sign, not a placeholder
      "\\{\\{\\s*[^{}\\s]+?\\s*\\}\\}", // {{name}}
      "\\{\\s*[A-Za-z_][\\w.-]*\\s*,\\s*(?:plural|selectordinal|select)\\s*,", // ICU {count, plural,
      "\\{\\s*[A-Za-z_][\\w.-]*\\s*,\\s*(?:number|date|time)\\s*(?:,[^{}]*)?\\}", // ICU {n, number}
      "\\{\\s*[A-Za-z0-9_][\\w.-]*\\s*\\}", // {name}, {0}
      "%(?:\\(\\w+\\)|\\d+\\$)?[-+0#]*\\d*(?:\\.\\d+)?[sdifuxXeEgGc@]", // %s %d %(name)s %1$s %.2f
      "<\\/?[A-Za-z][\\w:.-]*(?:\\s[^<>]*?)?\\s*\\/?>", // HTML and XML tags: <b>, </a>, <br/>
    ].join("|"),
    "g"
  );

  function placeholders(text) {
    const found = [];
    for (const match of text.matchAll(PLACEHOLDER)) {
      if (match[0] === "%%") continue;
      let key = match[0].replace(/\s+/g, "");
      if (key.endsWith(",")) key = key.slice(0, -1) + "}";
      // A tag is compared by its name alone: its attributes (a link's address) may differ.
      const tag = /^<(\/?)([A-Za-z][\w:.-]*)/.exec(match[0]);
      if (tag) key = `<${tag[1]}${tag[2].toLowerCase()}${match[0].endsWith("/>") ? "/" : ""}>`;
      found.push({ index: match.index, text: match[0], key });
    }
    return found;
  }

  function highlight(element, text) {
    element.textContent = "";
    let at = 0;
    for (const token of placeholders(text)) {
      if (token.index > at) element.append(document.createTextNode(text.slice(at, token.index)));
      const mark = document.createElement("span");
      mark.className = "ph";
      mark.textContent = token.text;
      element.append(mark);
      at = token.index + token.text.length;
    }
    if (at < text.length) element.append(document.createTextNode(text.slice(at)));
  }

  // What differs between a value's placeholders and the source's, or null.
  function placeholderProblem(cell, text) {
    if (!source || cell.dataset.l === source) return null;
    const sourceCell = cell.parentElement.querySelector(`td.v[data-l="${CSS.escape(source)}"]`);
    const sourceValue = sourceCell && stored.get(sourceCell) && stored.get(sourceCell).value;
    if (!sourceValue) return null;
    const wanted = new Set(placeholders(sourceValue).map((p) => p.key));
    const given = new Set(placeholders(text).map((p) => p.key));
    const missing = [...wanted].filter((key) => !given.has(key));
    const extra = [...given].filter((key) => !wanted.has(key));
    return missing.length || extra.length ? { missing, extra } : null;
  }

  function describeProblem(problem) {
    const parts = [];
    if (problem.missing.length) parts.push(_("missing %(placeholders)s", { placeholders: problem.missing.join(" ") }));
    if (problem.extra.length) parts.push(_("not in the source %(placeholders)s", { placeholders: problem.extra.join(" ") }));
    return _("Placeholders differ from the source: %(differences)s.", { differences: parts.join("; ") });
  }

  // -- Cells and moves ---------------------------------------------------------------------

  function valueCells(row) {
    return Array.from(row.querySelectorAll("td.v"));
  }

  // The grid is one tab stop (a roving tabindex): the item focused last, at first the first
  // value. Arrows move between the items of a row (its checkbox, its values, its Details
  // button) and between rows; the header's "select every key" is the checkbox column's top.
  const ITEMS = "[data-select-all], [data-select], [data-shot-of], td.v, [data-details-of]";
  let tabStop = null;

  function rowItems(row) {
    return Array.from(row.querySelectorAll(ITEMS)).filter((item) => !item.hidden);
  }

  function isItem(element) {
    return element.matches(ITEMS) && !element.hidden;
  }

  function makeTabStop(item) {
    if (item === tabStop) return;
    if (tabStop) tabStop.tabIndex = -1;
    tabStop = item;
    item.tabIndex = 0;
  }

  // After rows come or go: the tab stop stays where it was, or goes to the first item.
  function keepTabStop() {
    if (tabStop && tabStop.isConnected) return;
    tabStop = null;
    const first = tbody.querySelector("td.v") || grid.querySelector("[data-select-all]:not([hidden])");
    if (first) makeTabStop(first);
  }

  // A very long value shows its first lines, with a toggle to show all of it: the row stays
  // short enough to move through the grid.
  const LONG_VALUE = 300;
  const LONG_LINES = 6;

  function clampLong(cell, text) {
    const element = cell.querySelector(".t");
    const long = text.length > LONG_VALUE || text.split("\n").length > LONG_LINES;
    element.classList.toggle("long", long);
    let toggle = cell.querySelector("[data-show-all]");
    if (!long) {
      if (toggle) toggle.remove();
      element.classList.remove("open");
      return;
    }
    if (toggle) return;
    toggle = document.createElement("button");
    toggle.type = "button";
    toggle.className = "small link-button show-all";
    toggle.dataset.showAll = "";
    toggle.tabIndex = -1;
    toggle.textContent = _("Show all");
    toggle.setAttribute("aria-expanded", "false");
    toggle.addEventListener("click", (event) => {
      event.stopPropagation();
      const open = element.classList.toggle("open");
      toggle.textContent = open ? _("Show less") : _("Show all");
      toggle.setAttribute("aria-expanded", String(open));
    });
    element.after(toggle);
  }

  function showValue(cell, state) {
    const text = cell.querySelector(".t");
    const shown = state.value !== null ? state.value : state.inherited || "";
    highlight(text, shown);
    clampLong(cell, shown);
    cell.toggleAttribute("data-missing", state.value === null);
    cell.toggleAttribute("data-inherited", state.value === null && state.inherited !== null);
    const badge = cell.querySelector(":scope > .badge");
    if (badge && state.value !== null) badge.remove();
    const override = cell.querySelector("[data-override]");
    if (override && state.value !== null) override.remove();
    const none = cell.querySelector(":scope > .sr-only");
    if (none && state.value !== null) none.remove();
  }

  function initRow(row) {
    for (const cell of valueCells(row)) {
      const text = cell.querySelector(".t").textContent;
      const missing = cell.hasAttribute("data-missing");
      const state = { value: missing ? null : text, inherited: cell.hasAttribute("data-inherited") ? text : null };
      stored.set(cell, state);
      highlight(cell.querySelector(".t"), text);
      clampLong(cell, text);
    }
    row.querySelectorAll("[data-select], [data-details-of], [data-override]").forEach(
      (element) => (element.hidden = false)
    );
    for (const item of rowItems(row)) item.tabIndex = -1;
    // A value's "Apply fix" and "Mark reviewed" are reached from its cell by F and R.
    row.querySelectorAll("[data-fix], [data-review]").forEach((element) => (element.tabIndex = -1));
  }

  // An API error in the words of the page: "updates.de.value: …" reads "German value: …".
  function inWords(message, labels = {}) {
    const match = /^([\w.-]+): ([\s\S]*)$/.exec(message || "");
    if (!match) return message;
    const path = match[1].split(".");
    const names = { key: _("Key"), fileName: _("File"), ...labels };
    let label = names[match[1]] || null;
    if (!label && (path[0] === "updates" || path[0] === "values") && path[1]) {
      // A value's field, named again before each of its issues when the checks refuse it.
      label = _("%(language)s value", { language: plainLanguageName(path[1]) });
      return `${label}: ${match[2].split(` ${match[1]}: `).join(` ${label}: `)}`;
    }
    return label ? `${label}: ${match[2]}` : message;
  }

  function plainLanguageName(code) {
    const option = root.querySelector(`#f-source option[value="${CSS.escape(code)}"]`);
    return option ? option.textContent.replace(/\s*\([^()]*\)\s*$/, "").trim() : code;
  }

  function languageName(code) {
    const header = grid.querySelector(`thead th[data-l="${CSS.escape(code)}"]`);
    return header ? header.textContent.replace(/\s+/g, " ").replace(" source", "").trim() : code;
  }

  // Which column an item is in: only some keys have a screenshot beside them, so a column
  // is named, not counted.
  function columnOf(item) {
    if (item.matches("td.v")) return `v:${item.dataset.l}`;
    if (item.matches("[data-select], [data-select-all]")) return "select";
    return item.matches("[data-shot-of]") ? "shot" : "details";
  }

  // The item ``rows`` rows down (negative: up) in the same column (from a screenshot to a
  // row with none: its first value), or ``columns`` items along the same row; null at an
  // edge.
  function neighbour(item, rows, columns) {
    const row = item.closest("tr");
    if (rows) {
      const column = columnOf(item);
      const all = Array.from(grid.querySelectorAll("tr"));
      let at = all.indexOf(row) + rows;
      while (all[at] && !rowItems(all[at]).length) at += rows;
      if (!all[at]) return null;
      const there = rowItems(all[at]);
      const same = there.find((other) => columnOf(other) === column);
      return same || (column === "shot" ? there.find((other) => other.matches("td.v")) : null) || null;
    }
    const items = rowItems(row);
    return items[items.indexOf(item) + columns] || null;
  }

  // The next (step 1) or previous (step -1) value in reading order, across rows.
  function following(cell, step) {
    const all = Array.from(tbody.querySelectorAll("td.v"));
    return all[all.indexOf(cell) + step] || null;
  }

  // -- Editing -----------------------------------------------------------------------------

  function sameText(a, b) {
    return a.replace(/\r\n?/g, "\n") === b.replace(/\r\n?/g, "\n");
  }

  // Open an editor on the cell holding ``text`` (by default the stored value); true when one
  // opens. A cell whose save awaits its answer opens none, as the value to start from is not
  // known yet; asked for one, it opens with the answer if the cell still has the focus.
  function startEdit(cell, focus = true, text = null) {
    const pending = saving.get(cell);
    if (pending) {
      if (focus) {
        pending.reopen = true;
        cell.focus();
        Loko.announce(_("Saving %(key)s: it opens for editing once saved.", { key: cell.parentElement.dataset.key }));
      }
      return false;
    }
    if (!canEdit || cell.hasAttribute("data-readonly") || edits.has(cell) || cell.querySelector(".conflict")) {
      const open = edits.get(cell);
      if (open && focus) focusEdit(open);
      return false;
    }
    const state = stored.get(cell);
    const row = cell.parentElement;
    const start = state.value !== null ? state.value : state.inherited || "";
    const box = document.createElement("div");
    box.className = "cell-editor";
    const textarea = document.createElement("textarea");
    textarea.value = text !== null ? text : start;
    textarea.rows = Math.min(8, Math.max(2, textarea.value.split("\n").length + 1));
    textarea.setAttribute("aria-label", _("%(language)s value of %(key)s", { language: languageName(cell.dataset.l), key: row.dataset.key }));
    inLanguage(textarea, cell.dataset.l);
    const note = document.createElement("p");
    note.className = "cell-note info";
    note.id = `note-${Math.random().toString(36).slice(2)}`;
    note.textContent = _("Enter saves, Shift+Enter adds a line, Esc cancels.");
    textarea.setAttribute("aria-describedby", note.id);
    const actions = document.createElement("div");
    actions.className = "actions";
    const save = button(_("Save"), "small primary", () => commit(cell, () => cell.focus()));
    const cancel = button(_("Cancel"), "small", () => cancelEdit(cell));
    actions.append(save, cancel);
    box.append(textarea, note, actions);
    const forms = pluralForms(cell, textarea);
    if (forms) textarea.before(forms.element);
    cell.querySelector(".t").hidden = true;
    cell.append(box);
    cell.classList.add("editing");
    cell.classList.remove("saved", "failed");
    // ``expected``: the stored value this edit starts from, which the save sends so that
    // a change made meanwhile by someone else shows as a conflict instead of being lost.
    edits.set(cell, { textarea, note, start, expected: state.value, confirmed: false, box, inserted: null, forms });
    attachSuggestions(cell, actions, start === "");
    textarea.addEventListener("input", () => checkPlaceholders(cell, false));
    checkPlaceholders(cell, false);
    if (focus && forms) forms.focus();
    else if (focus) {
      textarea.focus();
      textarea.setSelectionRange(textarea.value.length, textarea.value.length);
    }
    return true;
  }

  // One field per plural form where the value (or, for a new one, the source) is an ICU
  // plural: plural_forms.js; the textarea keeps the message they write.
  const pluralExamples = JSON.parse(root.dataset.plurals || "{}");

  function pluralForms(cell, textarea) {
    if (!window.LokoPlurals) return null;
    const code = cell.dataset.l;
    const sourceCell = source ? cell.parentElement.querySelector(`td.v[data-l="${CSS.escape(source)}"]`) : null;
    const sourceState = sourceCell && sourceCell !== cell ? stored.get(sourceCell) : null;
    return window.LokoPlurals.attach({
      textarea,
      language: code,
      languageName: plainLanguageName(code),
      examples: pluralExamples[code],
      source: sourceState ? sourceState.value || "" : "",
      onChange: () => checkPlaceholders(cell, false),
    });
  }

  function focusEdit(edit) {
    if (edit.forms && !edit.forms.showsText()) edit.forms.focus();
    else edit.textarea.focus();
  }

  // The language of a value and its direction (right to left for Arabic, Hebrew ...).
  function inLanguage(element, code) {
    if (!code) return;
    element.lang = code;
    element.dir = rightToLeft.has(code) ? "rtl" : "ltr";
  }

  function button(label, className, action) {
    const element = document.createElement("button");
    element.type = "button";
    element.className = className;
    element.textContent = label;
    element.addEventListener("click", (event) => {
      event.stopPropagation();
      action();
    });
    return element;
  }

  function checkPlaceholders(cell, confirming) {
    const edit = edits.get(cell);
    const problem = placeholderProblem(cell, edit.textarea.value);
    if (!confirming) edit.confirmed = false;
    if (problem) {
      edit.note.className = "cell-note warn";
      edit.note.textContent =
        describeProblem(problem) + (confirming ? " " + _("Press Enter again to save anyway.") : "");
    } else {
      edit.note.className = "cell-note info";
      edit.note.textContent = _("Enter saves, Shift+Enter adds a line, Esc cancels.");
    }
    return problem;
  }

  function closeEdit(cell) {
    const edit = edits.get(cell);
    if (!edit) return;
    edits.delete(cell); // first: removing the focused textarea fires focusout
    edit.box.remove();
    cell.querySelector(".t").hidden = false;
    cell.classList.remove("editing");
  }

  function cancelEdit(cell) {
    closeEdit(cell);
    cell.focus();
  }

  // Save the cell's edit (unless unchanged), then ``then()`` moves on without waiting for
  // the answer. A placeholder mismatch first warns; the next commit saves anyway.
  function commit(cell, then) {
    const edit = edits.get(cell);
    if (!edit) return;
    const text = edit.textarea.value;
    if (sameText(text, edit.start)) {
      closeEdit(cell);
      then();
      return;
    }
    if (!edit.confirmed && checkPlaceholders(cell, true)) {
      edit.confirmed = true;
      Loko.announce(edit.note.textContent);
      focusEdit(edit);
      return;
    }
    // A machine translation or a memory match saved as it was inserted waits for a review:
    // the save itself says so (uneditedSuggestion), set with the value in one transaction.
    const unedited =
      edit.inserted && REVIEWED_SOURCES.has(edit.inserted.source) && sameText(text, edit.inserted.text)
        ? edit.inserted.source
        : null;
    closeEdit(cell);
    save(cell, text, edit.expected, unedited);
    then();
  }

  async function save(cell, text, expected, unedited = null) {
    const row = cell.parentElement;
    const code = cell.dataset.l;
    const before = stored.get(cell);
    const pending = { reopen: false };
    saving.set(cell, pending);
    showValue(cell, { value: text, inherited: null });
    cell.classList.add("saving");
    cell.classList.remove("saved", "failed", "conflicted");
    pendingSaves += 1;
    const result = await call("PATCH", api, {
      key: row.dataset.key,
      fileName: row.dataset.file,
      updates: { [code]: unedited ? { value: text, expected, uneditedSuggestion: unedited } : { value: text, expected } },
    });
    pendingSaves -= 1;
    saving.delete(cell);
    cell.classList.remove("saving");
    // Someone asked to edit the cell while it was saving and has not moved on since.
    const wanted = pending.reopen && document.activeElement === cell;
    const conflict = result.status === 409 && result.data && result.data.details && result.data.details.conflicts;
    if (result.ok || (conflict && conflict[code] && conflict[code].current === text)) {
      stored.set(cell, { value: text, inherited: null });
      // What the checks found and the review state were those of the value before: the
      // row's own, and its other languages' when the source changed, come from the server.
      const quality = cell.querySelector("[data-quality]");
      if (quality) quality.remove();
      if (!row.dataset.id && result.ok) ownRow(row, result.data.results[code].id);
      cell.classList.add("saved");
      Loko.announce(_("Saved %(key)s", { key: row.dataset.key }));
      refreshRow(row);
      if (wanted) startEdit(cell);
    } else if (conflict && conflict[code]) {
      stored.set(cell, { value: conflict[code].current, inherited: before.inherited });
      showValue(cell, stored.get(cell));
      showConflict(cell, text, conflict[code].current);
    } else {
      showValue(cell, before);
      cell.classList.add("failed");
      const message = inWords(result.data && result.data.error) || _("error %(status)s", { status: result.status });
      // The text stays in an editor, focused only if the cell asked for one; an editor
      // this did not open keeps what is typed in it.
      if (startEdit(cell, wanted, text)) {
        const edit = edits.get(cell);
        edit.note.className = "cell-note bad";
        edit.note.setAttribute("role", "alert");
        edit.note.textContent = _("Not saved: %(message)s", { message });
      }
      Loko.announce(_("%(key)s was not saved: %(message)s", { key: row.dataset.key, message }));
    }
  }

  // The row's review states and what the checks found, as the server has them now, put in
  // place of those shown: the values, open editors and conflicts stay as they are. A cell
  // whose save is on its way keeps its own until that save's answer asks again.
  const refreshing = new WeakMap(); // row -> the latest request's number
  let refreshes = 0;

  async function refreshRow(row) {
    if (!row.dataset.id) return;
    const number = ++refreshes;
    refreshing.set(row, number);
    let fresh;
    try {
      fresh = (await fetchRows(withParams(root.dataset.row, { id: row.dataset.id }))).rows[0];
    } catch (error) {
      Loko.announce(_("Reload the page to see what the checks found in %(key)s.", { key: row.dataset.key }));
      return;
    }
    if (refreshing.get(row) !== number || !fresh || !row.isConnected) return;
    const count = row.querySelector("th.key .comment-count");
    const freshCount = fresh.querySelector("th.key .comment-count");
    if (count) count.remove();
    if (freshCount) row.querySelector("th.key").append(freshCount);
    for (const cell of valueCells(row)) {
      if (saving.has(cell)) continue;
      const twin = fresh.querySelector(`td.v[data-l="${CSS.escape(cell.dataset.l)}"]`);
      const quality = twin && twin.querySelector("[data-quality]");
      const old = cell.querySelector("[data-quality]");
      if (old) old.remove();
      if (!quality) continue;
      quality.querySelectorAll('input[name="view"]').forEach((input) => (input.value = root.dataset.view));
      quality.querySelectorAll("[data-fix], [data-review]").forEach((element) => (element.tabIndex = -1));
      const after = cell.querySelector(":scope > .cell-editor, :scope > .conflict");
      if (after) after.before(quality);
      else cell.append(quality);
    }
  }

  // "Mark reviewed" (R on a value, or its button): through the JSON API, the row updated in
  // place, so the view, the search and the place in the grid stay.
  tbody.addEventListener("submit", (event) => {
    const review = event.target.querySelector("[data-review]");
    if (!review || !reviewApi) return;
    event.preventDefault();
    markReviewed(event.target.closest("td.v"));
  });

  async function markReviewed(cell) {
    const row = cell.parentElement;
    const code = cell.dataset.l;
    const focused = cell.contains(document.activeElement);
    const result = await call("POST", reviewApi, {
      fileName: row.dataset.file,
      keys: [row.dataset.key],
      languages: [code],
      state: "reviewed",
    });
    if (!result.ok) {
      say(inWords(result.data && result.data.error) || _("Not marked reviewed (error %(status)s).", { status: result.status }));
      return;
    }
    await refreshRow(row);
    if (focused && !cell.contains(document.activeElement)) cell.focus();
    say(_("Marked reviewed: %(key)s in %(language)s.", { key: row.dataset.key, language: code }));
  }

  // A row only the linked project had becomes this project's own once a value is overridden.
  function ownRow(row, id) {
    row.dataset.id = id;
    row.removeAttribute("data-lent");
    const select = row.querySelector("[data-select]");
    if (select) {
      select.disabled = false;
      select.setAttribute("aria-label", _("Select %(key)s", { key: row.dataset.key }));
    }
  }

  // Loko.api, with a failure to reach the server answered like an error response.
  async function call(method, url, body) {
    try {
      return await Loko.api(method, url, body);
    } catch (error) {
      return { ok: false, status: 0, data: { error: _("The server could not be reached.") } };
    }
  }

  function showConflict(cell, mine, theirs) {
    cell.classList.add("conflicted");
    const row = cell.parentElement;
    const box = document.createElement("div");
    box.className = "conflict";
    box.setAttribute("role", "group");
    box.setAttribute("aria-label", _("Conflict on %(key)s", { key: row.dataset.key }));
    const intro = document.createElement("p");
    intro.textContent = _("Someone else changed this value while you were editing it.");
    box.append(
      intro,
      version(_("Theirs (saved now)"), theirs, cell.dataset.l),
      version(_("Yours (not saved)"), mine, cell.dataset.l)
    );
    const actions = document.createElement("div");
    actions.className = "actions";
    actions.append(
      button(_("Keep mine"), "small primary", () => {
        box.remove();
        cell.classList.remove("conflicted");
        save(cell, mine, theirs);
        cell.focus();
      }),
      button(_("Take theirs"), "small", () => {
        box.remove();
        cell.classList.remove("conflicted");
        Loko.announce(_("Kept the other version of %(key)s", { key: row.dataset.key }));
        cell.focus();
      })
    );
    box.append(actions);
    cell.append(box);
    Loko.announce(_("Conflict on %(key)s: someone else changed it. Choose Keep mine or Take theirs.", { key: row.dataset.key }));
  }

  function version(label, value, code) {
    const wrap = document.createElement("div");
    const name = document.createElement("span");
    name.className = "label";
    name.textContent = label;
    const text = document.createElement("div");
    text.className = "version";
    if (value === null) {
      text.textContent = _("No value");
    } else {
      highlight(text, value);
      inLanguage(text, code);
    }
    wrap.append(name, text);
    return wrap;
  }

  // -- Suggestions -------------------------------------------------------------------------

  // A value being edited (in any language but the source) lists what the translation memory,
  // the glossary and the machine translation providers suggest (GET .../suggestions), each
  // put in the editor by Alt+1 … Alt+9 or a click. They are asked for at once for a missing
  // value, and for another one with the "Show suggestions" button or the first Alt+digit.
  // A machine translation or a memory match saved as it was inserted is then marked as
  // needing a review (a glossary item puts in only a term).
  const suggestionsApi = root.dataset.suggestions;
  const reviewApi = root.dataset.reviewApi;
  const suggested = new Map(); // file, key and language -> the answer's promise
  const SOURCE_LABELS = { machine: _("Machine translation"), memory: _("Memory"), glossary: _("Glossary") };
  const MAX_SUGGESTIONS = 9;
  const REVIEWED_SOURCES = new Set(["machine", "memory"]);

  // Alt (Option) with a digit 1-9 by its physical key, as macOS types a symbol with Option.
  function suggestionNumber(event) {
    if (!event.altKey || event.ctrlKey || event.metaKey) return null;
    const match = /^Digit([1-9])$/.exec(event.code || "");
    return match ? Number(match[1]) - 1 : null;
  }

  function suggestionsOf(row, code) {
    const id = [row.dataset.file, row.dataset.key, code].join("\u0000");
    if (!suggested.has(id)) {
      const url = withParams(suggestionsApi, { fileName: row.dataset.file, key: row.dataset.key, language: code });
      const answer = call("GET", url).then((result) => {
        if (!result.ok) {
          suggested.delete(id); // asked again next time
          return { items: [], errors: [], error: (result.data && result.data.error) || _("error %(status)s", { status: result.status }) };
        }
        return { items: result.data.suggestions || [], errors: result.data.errors || [], error: null };
      });
      suggested.set(id, answer);
    }
    return suggested.get(id);
  }

  function isForbidden(item) {
    return item.source === "glossary" && item.forbidden === true;
  }

  function suggestionLabel(item) {
    const parts = [SOURCE_LABELS[item.source] || item.source];
    const origin = item.provider || item.projectName || item.project || item.origin;
    if (origin && typeof origin === "string") parts.push(origin);
    if (typeof item.score === "number") parts.push(`${Math.round(item.score)}%`);
    // A memory match in this key's placeholders, or one whose placeholders differ from them.
    if (item.adapted === true) parts.push(_("placeholders adapted"));
    if (item.placeholdersDiffer === true) parts.push(_("placeholders differ"));
    return parts.join(" · ");
  }

  function suggestionText(item) {
    for (const name of ["text", "translation", "target"]) {
      if (typeof item[name] === "string") return item[name];
    }
    return "";
  }

  function attachSuggestions(cell, actions, now) {
    if (!suggestionsApi || !source || cell.dataset.l === source) return;
    const edit = edits.get(cell);
    const panel = document.createElement("div");
    panel.className = "suggestions";
    panel.setAttribute("role", "group");
    panel.setAttribute("aria-label", _("Suggestions for %(key)s", { key: cell.parentElement.dataset.key }));
    const show = button(_("Show suggestions"), "small link-button", () => loadSuggestions(cell));
    const list = document.createElement("ol");
    list.className = "suggestion-list";
    list.hidden = true;
    const note = document.createElement("p");
    note.className = "suggestion-note small muted";
    note.textContent = _("Alt+1 … Alt+9 inserts a suggestion.");
    panel.append(show, list, note);
    actions.before(panel);
    edit.suggestions = { show, list, note, items: null };
    if (now) loadSuggestions(cell);
  }

  async function loadSuggestions(cell) {
    const edit = edits.get(cell);
    if (!edit || !edit.suggestions) return null;
    const shown = edit.suggestions;
    if (shown.items) return shown.items;
    shown.show.hidden = true;
    shown.note.textContent = _("Asking for suggestions…");
    const answer = await suggestionsOf(cell.parentElement, cell.dataset.l);
    if (edits.get(cell) !== edit) return null; // the editor closed meanwhile
    // A forbidden glossary term is listed to be avoided, marked as such, without a number:
    // no key press and no click puts it in.
    const listed = answer.items.filter((item) => suggestionText(item) !== "");
    shown.items = listed.filter((item) => !isForbidden(item)).slice(0, MAX_SUGGESTIONS);
    shown.forbidden = listed.filter(isForbidden);
    shown.list.textContent = "";
    shown.items.forEach((item, index) => {
      const entry = document.createElement("li");
      const choice = document.createElement("button");
      choice.type = "button";
      choice.className = "suggestion";
      const keys = document.createElement("kbd");
      keys.textContent = `Alt+${index + 1}`;
      const label = document.createElement("span");
      label.className = "suggestion-source";
      label.textContent = suggestionLabel(item);
      const text = document.createElement("span");
      text.className = "suggestion-text";
      highlight(text, suggestionText(item));
      inLanguage(text, cell.dataset.l);
      choice.append(keys, " ", label, text);
      choice.addEventListener("click", (event) => {
        event.stopPropagation();
        insertSuggestion(cell, index);
      });
      entry.append(choice);
      shown.list.append(entry);
    });
    for (const item of shown.forbidden) {
      const entry = document.createElement("li");
      entry.className = "suggestion forbidden";
      const badge = document.createElement("span");
      badge.className = "badge bad";
      badge.textContent = _("Forbidden");
      const label = document.createElement("span");
      label.className = "suggestion-source";
      label.textContent = _("%(source)s: never use", { source: suggestionLabel(item) });
      const text = document.createElement("del");
      text.className = "suggestion-text";
      text.textContent = suggestionText(item);
      inLanguage(text, cell.dataset.l);
      entry.append(badge, " ", label, text);
      shown.list.append(entry);
    }
    shown.list.hidden = listed.length === 0;
    const problems = answer.error ? [answer.error] : answer.errors.map((item) => `${item.provider}: ${item.error}`);
    if (shown.items.length) {
      shown.note.textContent =
        shown.items.length === 1 ? _("Alt+1 inserts it.") : _("Alt+1 … Alt+%(last)s inserts a suggestion.", { last: shown.items.length });
      Loko.announce(
        shown.items.length === 1
          ? _("1 suggestion: Alt+1 inserts it.")
          : ngettext("%(num)s suggestion: Alt+1 to Alt+%(num)s insert one.", "%(num)s suggestions: Alt+1 to Alt+%(num)s insert one.", shown.items.length)
      );
    } else {
      shown.note.textContent = _("No suggestions.");
    }
    if (shown.forbidden.length) shown.note.textContent += " " + _("A forbidden term is listed to avoid it, never inserted.");
    if (problems.length) shown.note.textContent += ` ${problems.join(" ")}`;
    return shown.items;
  }

  async function insertSuggestion(cell, index) {
    const edit = edits.get(cell);
    const items = await loadSuggestions(cell);
    if (!items || edits.get(cell) !== edit) return;
    const item = items[index];
    if (!item) {
      const words = edit.suggestions.forbidden.length
        ? _("There is no suggestion %(number)s (a forbidden glossary term is never inserted).", { number: index + 1 })
        : _("There is no suggestion %(number)s.", { number: index + 1 });
      edit.suggestions.note.textContent = words;
      Loko.announce(words);
      return;
    }
    const text = suggestionText(item);
    edit.textarea.value = text;
    edit.inserted = item;
    checkPlaceholders(cell, false);
    if (edit.forms) edit.forms.refresh();
    if (edit.forms && !edit.forms.showsText()) edit.forms.focus();
    else {
      edit.textarea.focus();
      edit.textarea.setSelectionRange(text.length, text.length);
    }
    Loko.announce(_("Inserted suggestion %(number)s, %(label)s. Enter saves it.", { number: index + 1, label: suggestionLabel(item) }));
  }

  // -- Keyboard ----------------------------------------------------------------------------

  function isTyping(target) {
    return target.closest('input:not([type="checkbox"]), textarea, select, [contenteditable]') !== null;
  }

  grid.addEventListener("keydown", (event) => {
    const cell = event.target.closest("td.v");
    if (cell && event.target.closest("textarea")) {
      editorKey(event, cell);
      return;
    }
    const item = event.target;
    const wanted = suggestionNumber(event);
    if (item === cell && wanted !== null && suggestionsApi && cell.dataset.l !== source) {
      event.preventDefault();
      if (startEdit(cell)) insertSuggestion(cell, wanted);
      return;
    }
    if (!isItem(item) || event.altKey || event.ctrlKey || event.metaKey) return;
    const row = item.closest("tr");
    const moves = {
      ArrowUp: () => neighbour(item, -1, 0),
      ArrowDown: () => neighbour(item, 1, 0),
      ArrowLeft: () => neighbour(item, 0, -1),
      ArrowRight: () => neighbour(item, 0, 1),
      Home: () => valueCells(row)[0],
      End: () => valueCells(row).at(-1),
    };
    if (moves[event.key]) {
      event.preventDefault();
      const target = moves[event.key]();
      if (target) target.focus();
    } else if (item === cell && (event.key === "Enter" || event.key === "F2")) {
      event.preventDefault();
      startEdit(cell);
    } else if (item === cell && (event.key === "f" || event.key === "F" || event.key === "r" || event.key === "R")) {
      const action = cell.querySelector(event.key.toLowerCase() === "f" ? "[data-fix]" : "[data-review]");
      if (!action) return;
      event.preventDefault();
      if (pendingSaves === 0) action.form.requestSubmit(action);
      else Loko.announce(_("Wait for the values being saved, then press the key again."));
    } else if ((event.key === "d" || event.key === "D") && row.parentElement === tbody) {
      event.preventDefault();
      openDetails(row);
    }
  });

  grid.addEventListener("focusin", (event) => {
    const item = event.target.closest("td.v") || (isItem(event.target) ? event.target : null);
    if (item) makeTabStop(item);
  });

  function editorKey(event, cell) {
    if (event.isComposing) return;
    const wanted = suggestionNumber(event);
    if (wanted !== null && edits.get(cell) && edits.get(cell).suggestions) {
      event.preventDefault();
      insertSuggestion(cell, wanted);
    } else if (event.key === "Escape") {
      event.preventDefault();
      cancelEdit(cell);
      Loko.announce(_("Edit cancelled"));
    } else if (event.key === "Enter" && !event.shiftKey && !event.altKey) {
      event.preventDefault();
      commit(cell, () => {
        const next = neighbour(cell, 1, 0);
        if (next) startEdit(next);
        else cell.focus();
      });
    } else if (event.key === "Tab") {
      // Tab moves between a plural's fields first, then on to the next value.
      const edit = edits.get(cell);
      const fields = edit && edit.forms && !edit.forms.showsText() ? edit.forms.fields() : [];
      const at = fields.indexOf(event.target);
      if (at >= 0 && fields[at + (event.shiftKey ? -1 : 1)]) return;
      const next = following(cell, event.shiftKey ? -1 : 1);
      if (!next) return;
      event.preventDefault();
      commit(cell, () => startEdit(next));
    }
  }

  tbody.addEventListener("click", (event) => {
    const cell = event.target.closest("td.v");
    if (!cell || !canEdit) return;
    if (event.target.closest("[data-override]") || !event.target.closest("button, .conflict")) startEdit(cell);
  });

  // Leaving an untouched editor closes it; an edited one stays open until saved or cancelled.
  tbody.addEventListener("focusout", (event) => {
    const cell = event.target.closest("td.v");
    if (!cell || cell.contains(event.relatedTarget)) return;
    const edit = edits.get(cell);
    if (edit && sameText(edit.textarea.value, edit.start)) closeEdit(cell);
  });

  const help = document.getElementById("editor-help");
  document.addEventListener("keydown", (event) => {
    if (event.defaultPrevented || isTyping(event.target) || document.querySelector("dialog[open]")) return;
    if (event.key === "?") {
      event.preventDefault();
      help.showModal();
    } else if (event.key === "/") {
      event.preventDefault();
      document.getElementById("f-q").focus();
    }
  });
  root.querySelector("[data-open-help]").addEventListener("click", () => help.showModal());

  window.addEventListener("beforeunload", (event) => {
    const unsaved = Array.from(tbody.querySelectorAll("td.v.editing")).some((cell) => {
      const edit = edits.get(cell);
      return edit && !sameText(edit.textarea.value, edit.start);
    });
    if (unsaved || pendingSaves > 0) event.preventDefault();
  });

  // -- Rows: more of them, one new key -----------------------------------------------------

  async function fetchRows(url) {
    const response = await fetch(url, { credentials: "same-origin", headers: { Accept: "text/html" } });
    if (!response.ok || response.redirected) throw new Error(_("status %(status)s", { status: response.status }));
    const fragment = new DOMParser().parseFromString(await response.text(), "text/html");
    const body = fragment.querySelector("tbody[data-next]");
    if (!body) throw new Error(_("reload the page: the session may have ended"));
    return { rows: Array.from(body.querySelectorAll("tr")), next: body.dataset.next || "" };
  }

  function withParams(url, params) {
    const target = new URL(url, window.location.href);
    for (const [name, value] of Object.entries(params)) target.searchParams.set(name, value);
    return target.toString();
  }

  const more = root.querySelector("[data-more]");
  const nextLink = root.querySelector("[data-next-link]");
  more.hidden = !more.dataset.cursor;
  more.addEventListener("click", async () => {
    more.disabled = true;
    try {
      const page = await fetchRows(withParams(root.dataset.rows, { after: more.dataset.cursor }));
      // A key added on this page is shown already, at the top.
      const added = page.rows.filter(
        (row) => !row.dataset.id || !tbody.querySelector(`tr[data-id="${CSS.escape(row.dataset.id)}"]`)
      );
      for (const row of added) {
        tbody.append(row);
        initRow(row);
      }
      more.dataset.cursor = page.next;
      more.hidden = !page.next;
      if (nextLink) {
        if (page.next) nextLink.href = withParams(nextLink.href, { after: page.next });
        else nextLink.remove();
      }
      Loko.announce(ngettext("%(num)s more key shown", "%(num)s more keys shown", added.length));
      if (added.length) valueCells(added[0])[0]?.focus();
    } catch (error) {
      say(_("Could not load more keys (%(message)s).", { message: error.message }));
    } finally {
      more.disabled = false;
    }
  });

  function say(text) {
    status.textContent = text;
  }

  const create = root.querySelector("[data-create]");
  if (create) {
    create.addEventListener("submit", async (event) => {
      event.preventDefault();
      const form = new FormData(create);
      const values = {};
      const value = form.get("value");
      if (source && value) values[source] = value;
      const result = await call("POST", api, { key: form.get("key"), fileName: form.get("fileName"), values });
      if (!result.ok) {
        const error = inWords(result.data && result.data.error, { key: _("New key") });
        say(error || _("The key was not added (error %(status)s).", { status: result.status }));
        return;
      }
      const translation = result.data.translation;
      try {
        const page = await fetchRows(withParams(root.dataset.row, { id: translation.id }));
        for (const row of page.rows) {
          row.classList.add("added");
          tbody.prepend(row);
          initRow(row);
        }
        keepTabStop();
        root.querySelector("[data-empty]").hidden = true;
        const cells = page.rows.length ? valueCells(page.rows[0]) : [];
        const first = cells.find((cell) => cell.dataset.l !== source) || cells[0];
        if (first) first.focus();
      } catch (error) {
        /* The key exists; it shows once the page is reloaded. */
      }
      create.elements.key.value = "";
      if (create.elements.value) create.elements.value.value = "";
      say(_("Added %(key)s to %(file)s.", { key: translation.key, file: translation.fileName }));
    });
  }

  // -- Selection and the trash -------------------------------------------------------------

  const selectAll = root.querySelector("[data-select-all]");
  const trash = root.querySelector("[data-trash]");
  const count = root.querySelector("[data-selected-count]");

  function selectedRows() {
    return Array.from(tbody.querySelectorAll("[data-select]:checked:not(:disabled)")).map((box) =>
      box.closest("tr")
    );
  }

  function selectionChanged() {
    const rows = selectedRows();
    tbody.querySelectorAll("tr").forEach((row) => row.classList.toggle("selected", rows.includes(row)));
    count.textContent = rows.length === 0 ? _("No key selected") : ngettext("%(num)s key selected", "%(num)s keys selected", rows.length);
    trash.disabled = rows.length === 0;
    const all = tbody.querySelectorAll("[data-select]:not(:disabled)").length;
    selectAll.checked = all > 0 && rows.length === all;
    selectAll.indeterminate = rows.length > 0 && rows.length < all;
  }

  if (canManage) {
    tbody.addEventListener("change", (event) => {
      if (event.target.matches("[data-select]")) selectionChanged();
    });
    selectAll.addEventListener("change", () => {
      tbody.querySelectorAll("[data-select]:not(:disabled)").forEach((box) => (box.checked = selectAll.checked));
      selectionChanged();
    });
    trash.addEventListener("click", async () => {
      const byFile = new Map();
      for (const row of selectedRows()) {
        if (!byFile.has(row.dataset.file)) byFile.set(row.dataset.file, []);
        byFile.get(row.dataset.file).push(row);
      }
      let moved = 0;
      for (const [fileName, rows] of byFile) {
        const keys = rows.map((row) => row.dataset.key);
        const result = await call("PUT", api, { operation: "bulk-delete", fileName, keys });
        if (!result.ok) {
          say(inWords(result.data && result.data.error) || _("Not moved to the trash (error %(status)s).", { status: result.status }));
          break;
        }
        moved += result.data.deleted;
        rows.forEach((row) => row.remove());
      }
      selectionChanged();
      keepTabStop();
      if (moved) {
        status.textContent = "";
        status.append(ngettext("%(num)s key moved to the trash.", "%(num)s keys moved to the trash.", moved) + " ");
        const link = document.createElement("a");
        link.href = root.dataset.trashUrl;
        link.textContent = _("Open the trash");
        status.append(link);
      }
      if (!tbody.querySelector("tr")) root.querySelector("[data-empty]").hidden = false;
    });
  }

  // -- Details: every language and the history ---------------------------------------------

  const details = document.getElementById("editor-details");
  const detailsBody = details.querySelector("[data-details-body]");
  const historyList = details.querySelector("[data-history-list]");
  const historyStatus = details.querySelector("[data-history-status]");
  const historyMore = details.querySelector("[data-history-more]");
  // The key the dialog shows and where its history goes on; an answer about any other one
  // (a key opened before) arrives too late and changes nothing.
  let historyQuery = null;
  let historyLoading = null; // the query whose next history page is on its way
  let detailsOpener = null;

  let detailsRow = null;

  // ``screenshots``: the dialog opens on the key's screenshots (its row's thumbnail).
  async function openDetails(row, screenshots = false) {
    detailsRow = row;
    const query = { translationId: row.dataset.id, limit: "20" };
    historyQuery = query;
    detailsOpener = document.activeElement;
    details.querySelector("h2").textContent = row.dataset.key;
    detailsBody.textContent = _("Loading…");
    historyList.textContent = "";
    historyStatus.textContent = "";
    historyMore.hidden = true;
    if (!details.open) details.showModal();
    if (!row.dataset.id) {
      detailsBody.textContent =
        _("Every value of this key is inherited from the linked project: override one to give it values of its own here.");
      historyStatus.textContent = _("No changes recorded in this project yet.");
      return;
    }
    let values;
    try {
      const response = await fetch(root.dataset.details + encodeURIComponent(row.dataset.id), {
        credentials: "same-origin",
      });
      if (!response.ok || response.redirected) throw new Error(_("status %(status)s", { status: response.status }));
      values = new DOMParser().parseFromString(await response.text(), "text/html").body.childNodes;
    } catch (error) {
      values = [_("Could not load the values (%(message)s).", { message: error.message })];
    }
    if (historyQuery !== query) return;
    detailsBody.replaceChildren(...values);
    Loko.localDates(detailsBody);
    const shots = detailsBody.querySelector("[data-key-screenshots]");
    if (shots) browseScreenshots(shots);
    if (screenshots && shots) {
      shots.scrollIntoView({ block: "start" });
      shots.querySelector("h3").focus();
    }
    loadHistory();
  }

  // A key's screenshots in its details: one at a time, Previous and Next between them, and
  // a zoom on the box around the key's regions (the picture keeps its proportions).
  function browseScreenshots(section) {
    const items = Array.from(section.querySelectorAll("[data-shot]"));
    const controls = section.querySelector("[data-shot-controls]");
    if (!items.length || !controls) return;
    const position = section.querySelector("[data-shot-position]");
    const zoom = section.querySelector("[data-shot-zoom]");
    let current = 0;
    let zoomed = false;

    function zoomBox(item) {
      const [width, height] = item.dataset.image.split(" ").map(Number);
      const [x, y, w, h] = item.dataset.keyBox.split(" ").map(Number);
      const margin = Math.max(24, 0.2 * Math.max(w, h));
      const shown = Math.min(width, Math.max(w + 2 * margin, ((h + 2 * margin) * width) / height, width / 8));
      const high = (shown * height) / width;
      const left = Math.min(Math.max(x + w / 2 - shown / 2, 0), width - shown);
      const top = Math.min(Math.max(y + h / 2 - high / 2, 0), height - high);
      return `${Math.round(left)} ${Math.round(top)} ${Math.round(shown)} ${Math.round(high)}`;
    }

    function draw() {
      items.forEach((item, index) => {
        item.hidden = index !== current;
        const [width, height] = item.dataset.image.split(" ");
        item.querySelector("svg").setAttribute("viewBox", zoomed ? zoomBox(item) : `0 0 ${width} ${height}`);
      });
      if (position) position.textContent = _("%(current)s of %(total)s", { current: current + 1, total: items.length });
      zoom.setAttribute("aria-pressed", String(zoomed));
    }

    section.querySelectorAll("[data-shot-step]").forEach((step) =>
      step.addEventListener("click", () => {
        current = (current + Number(step.dataset.shotStep) + items.length) % items.length;
        draw();
      })
    );
    zoom.addEventListener("click", () => {
      zoomed = !zoomed;
      draw();
    });
    controls.hidden = false;
    section.dataset.browsing = "";
    draw();
  }

  async function loadHistory() {
    const query = historyQuery;
    if (historyLoading === query) return;
    historyLoading = query;
    historyStatus.textContent = _("Loading the history…");
    const result = await call("GET", withParams(root.dataset.history, query));
    if (historyQuery !== query) return;
    historyLoading = null;
    if (!result.ok) {
      historyStatus.textContent = (result.data && result.data.error) || _("Could not load the history.");
      return;
    }
    for (const entry of result.data.history) historyList.append(historyItem(entry));
    Loko.localDates(historyList);
    historyStatus.textContent = historyList.children.length ? "" : _("No changes recorded yet.");
    query.cursor = result.data.next_cursor;
    historyMore.hidden = !result.data.next_cursor;
  }

  function historyItem(entry) {
    const item = document.createElement("li");
    const meta = document.createElement("div");
    meta.className = "meta";
    const time = document.createElement("time");
    time.setAttribute("datetime", entry.created_at);
    time.textContent = entry.created_at;
    const who = entry.actor.name || (entry.actor.type === "api_key" ? _("API key") : "Loko");
    const action = historyAction(entry.action);
    meta.append(time, ` · ${who} · ${action}${entry.language ? ` ${entry.language}` : ""}`);
    item.append(meta);
    if (entry.old_value !== null || entry.new_value !== null) {
      const change = document.createElement("dl");
      change.className = "history-change";
      for (const [label, value, className] of [
        [_("Before"), entry.old_value, "old"],
        [_("After"), entry.new_value, "new"],
      ]) {
        if (value === null) continue;
        const term = document.createElement("dt");
        term.textContent = label;
        const text = document.createElement("dd");
        text.className = className;
        text.textContent = value;
        inLanguage(text, entry.language);
        change.append(term, text);
      }
      item.append(change);
    }
    return item;
  }

  // Comments: added, resolved and reopened through the JSON API, then the thread and the
  // row's count of open comments drawn again in place: the dialog, the grid and its view stay.
  detailsBody.addEventListener("submit", async (event) => {
    const form = event.target;
    const row = detailsRow;
    if (!form.closest(".key-comments") || !row || !row.dataset.id) return;
    event.preventDefault();
    const thread = `${api}/${encodeURIComponent(row.dataset.id)}/comments`;
    const fields = new FormData(form);
    const adding = form.classList.contains("comment-new");
    const commentId = adding ? null : form.getAttribute("action").split("/").pop();
    const resolved = fields.get("resolved") === "true";
    const submitter = form.querySelector('[type="submit"]');
    submitter.disabled = true;
    const result = adding
      ? await call("POST", thread, { body: fields.get("body"), language: fields.get("language") || null })
      : await call("PATCH", `${thread}/${encodeURIComponent(commentId)}`, { resolved });
    submitter.disabled = false;
    if (!result.ok) {
      const message = inWords(result.data && result.data.error, { body: _("New comment"), language: _("Comment about") });
      let alert = form.querySelector(":scope > .error");
      if (!alert) {
        alert = document.createElement("p");
        alert.className = "error";
        alert.setAttribute("role", "alert");
        form.prepend(alert);
      }
      alert.textContent = message || _("Not saved (error %(status)s).", { status: result.status });
      return;
    }
    const done = adding ? _("Comment added.") : resolved ? _("Comment resolved.") : _("Comment reopened.");
    await redrawThread(row, adding ? null : commentId);
    refreshRow(row);
    Loko.announce(done);
  });

  async function redrawThread(row, commentId) {
    let fresh = null;
    try {
      const response = await fetch(root.dataset.details + encodeURIComponent(row.dataset.id), {
        credentials: "same-origin",
      });
      if (response.ok && !response.redirected) {
        const page = new DOMParser().parseFromString(await response.text(), "text/html");
        fresh = page.querySelector(".key-comments");
      }
    } catch (error) {
      fresh = null;
    }
    const old = detailsBody.querySelector(".key-comments");
    if (!fresh || !old || detailsRow !== row) return;
    old.replaceWith(fresh);
    Loko.localDates(fresh);
    const again = commentId
      ? Array.from(fresh.querySelectorAll(".comment-action")).find(
          (form) => form.getAttribute("action").split("/").pop() === commentId
        )
      : null;
    const focus = again ? again.querySelector('[type="submit"]') : fresh.querySelector("textarea");
    if (focus) focus.focus();
  }

  historyMore.addEventListener("click", loadHistory);
  details.addEventListener("close", () => {
    // The close event comes a task after the dialog closed: focus moved meanwhile stays.
    const focus = document.activeElement;
    const lost = !focus || focus === document.body || details.contains(focus);
    if (lost && detailsOpener && detailsOpener.isConnected) detailsOpener.focus();
  });
  tbody.addEventListener("click", (event) => {
    const opener = event.target.closest("[data-details-of]");
    if (opener) openDetails(opener.closest("tr"));
    const shot = event.target.closest("[data-shot-of]");
    if (shot && !event.ctrlKey && !event.metaKey && !event.shiftKey) {
      event.preventDefault();
      openDetails(shot.closest("tr"), true);
    }
  });

  // -- Start -------------------------------------------------------------------------------

  root.querySelectorAll("[data-open-help], [data-create], [data-bulk], [data-hint], [data-select-all]").forEach(
    (element) => (element.hidden = false)
  );
  if (selectAll) selectAll.tabIndex = -1;
  tbody.querySelectorAll("tr").forEach(initRow);
  keepTabStop();
})();
