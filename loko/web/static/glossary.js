// The glossary in the editor: the organization glossary's terms found in the source column
// are marked, with the expected translation in their title and in a line under the source
// text that screen readers read too. One request for the rows shown (and one per batch of
// rows loaded later), never one per row. The translations shown are those of the language
// of the value the cursor is in (at first, the language the person may edit); the source's
// own cells keep the last. While a value is typed, its source's terms are listed under it with
// the translation expected, and a forbidden translation typed is flagged at once. Texts
// reach the page as text only.
(function () {
  "use strict";
  const _ = (message, values) => window.Loko._(message, values);

  const root = document.getElementById("editor");
  if (!root || !root.dataset.glossary || !root.dataset.source) return;
  const url = root.dataset.glossary;
  const source = root.dataset.source;
  let language = root.dataset.glossaryLanguage || "";
  const tbody = document.getElementById("editor-rows");
  if (!tbody) return;
  const MAX_TEXTS = 200;
  const known = new Map(); // language -> (source text -> terms found in it)

  function termsIn(code) {
    if (!known.has(code)) known.set(code, new Map());
    return known.get(code);
  }

  function sourceText(cell) {
    return cell.querySelector(".t")?.textContent || "";
  }

  function sourceCells(rows) {
    const cells = [];
    for (const row of rows) {
      const cell = row.querySelector(`td.v[data-l="${CSS.escape(source)}"]`);
      if (cell && !cell.hasAttribute("data-missing")) cells.push(cell);
    }
    return cells;
  }

  async function fetchMatches(texts, code) {
    const terms = termsIn(code);
    const wanted = Array.from(new Set(texts.filter((text) => text && !terms.has(text))));
    for (let start = 0; start < wanted.length; start += MAX_TEXTS) {
      const query = new URLSearchParams();
      for (const text of wanted.slice(start, start + MAX_TEXTS)) query.append("text", text);
      if (code) query.set("language", code);
      const response = await fetch(`${url}?${query}`, { credentials: "same-origin" });
      if (!response.ok) return;
      const answer = await response.json();
      for (const match of answer.matches) terms.set(match.text, match.terms);
    }
  }

  function escaped(text) {
    return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  }

  function pattern(term) {
    return new RegExp(`(?<![\\p{L}\\p{N}_])${escaped(term.term)}(?![\\p{L}\\p{N}_])`, term.caseSensitive ? "gu" : "giu");
  }

  function describe(term) {
    if (term.forbidden) return _("%(term)s: a forbidden term", { term: term.term });
    let words = term.translation ? `${term.term} → ${term.translation}` : term.term;
    if (term.forbiddenTranslations.length) words += " " + _("(not %(translations)s)", { translations: term.forbiddenTranslations.join(", ") });
    return words;
  }

  function markText(node, term) {
    const text = node.nodeValue;
    const regex = pattern(term);
    let match;
    let at = 0;
    const parts = [];
    while ((match = regex.exec(text)) !== null) {
      if (match.index > at) parts.push(document.createTextNode(text.slice(at, match.index)));
      const mark = document.createElement("mark");
      mark.className = term.forbidden ? "term forbidden" : "term";
      mark.title = describe(term);
      mark.textContent = match[0];
      parts.push(mark);
      at = match.index + match[0].length;
    }
    if (!parts.length) return;
    if (at < text.length) parts.push(document.createTextNode(text.slice(at)));
    node.replaceWith(...parts);
  }

  function unmark(box) {
    const marks = box.querySelectorAll("mark.term");
    if (!marks.length) return;
    marks.forEach((element) => element.replaceWith(element.textContent));
    box.normalize();
  }

  function mark(cell, code) {
    const terms = termsIn(code).get(sourceText(cell)) || [];
    const box = cell.querySelector(".t");
    cell.querySelector(":scope > .glossary-terms")?.remove();
    unmark(box);
    if (!terms.length) return;
    for (const term of terms) {
      const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
      const nodes = [];
      while (walker.nextNode()) {
        if (!walker.currentNode.parentElement.closest("mark")) nodes.push(walker.currentNode);
      }
      nodes.forEach((node) => markText(node, term));
    }
    const list = document.createElement("p");
    list.className = "glossary-terms small";
    list.textContent = _("Glossary: %(terms)s", { terms: terms.map(describe).join("; ") });
    box.after(list);
  }

  async function apply(rows) {
    const code = language;
    const cells = sourceCells(rows);
    if (!cells.length) return;
    await fetchMatches(cells.map(sourceText), code);
    // The cursor went on to another language meanwhile: its own drawing follows.
    if (code !== language) return;
    // The marks are not changes to watch: the observer rests while they are made.
    observer.disconnect();
    try {
      cells.forEach((cell) => mark(cell, code));
    } finally {
      watch();
    }
    // A value opened for editing before the terms came: its hints now.
    tbody.querySelectorAll(`td.v.editing[data-l="${CSS.escape(code)}"]`).forEach(typing);
  }

  // Rows loaded later, and source cells drawn again after an edit.
  const observer = new MutationObserver((changes) => {
    const rows = new Set();
    for (const change of changes) {
      const row = change.target.closest ? change.target.closest("tr") : null;
      if (row && tbody.contains(row)) rows.add(row);
      change.addedNodes.forEach((node) => {
        if (node.nodeName === "TR") rows.add(node);
      });
    }
    if (rows.size) apply(Array.from(rows));
  });

  function watch() {
    observer.observe(tbody, { childList: true, subtree: true, characterData: true });
  }

  // The cursor in a value of another language: every source cell shows that language's terms.
  tbody.addEventListener("focusin", (event) => {
    const cell = event.target.closest ? event.target.closest("td.v[data-l]") : null;
    if (!cell || cell.dataset.l === source) return;
    if (cell.dataset.l !== language) {
      language = cell.dataset.l;
      apply(Array.from(tbody.querySelectorAll("tr"))).then(() => typing(cell));
    } else {
      typing(cell);
    }
  });

  // While a value is typed: the terms of its source, each with the translation expected and
  // whether the value has it yet, and a forbidden translation flagged as soon as it is typed.
  tbody.addEventListener("input", (event) => {
    const cell = event.target.closest ? event.target.closest("td.v[data-l]") : null;
    if (cell && cell.dataset.l !== source) typing(cell);
  });

  function found(text, word) {
    return pattern({ term: word, caseSensitive: false }).test(text);
  }

  function typing(cell) {
    const editor = cell.querySelector(".cell-editor");
    const value = editor ? editor.querySelector(":scope > textarea") : null;
    if (!value) return;
    const sourceCell = cell.parentElement.querySelector(`td.v[data-l="${CSS.escape(source)}"]`);
    const terms = (sourceCell && termsIn(cell.dataset.l).get(sourceText(sourceCell))) || [];
    let hint = editor.querySelector(":scope > .glossary-typing");
    if (!terms.length) {
      if (hint) hint.remove();
      return;
    }
    if (!hint) {
      hint = document.createElement("p");
      hint.className = "glossary-typing small";
      hint.setAttribute("aria-live", "polite");
      value.after(hint);
    }
    const text = value.value;
    const parts = [];
    const warnings = [];
    for (const term of terms) {
      if (term.forbidden) continue;
      for (const word of term.forbiddenTranslations) {
        if (found(text, word)) {
          warnings.push(
            term.translation
              ? _("“%(word)s” is a forbidden translation of “%(term)s”: use “%(translation)s”.", { word, term: term.term, translation: term.translation })
              : _("“%(word)s” is a forbidden translation of “%(term)s”.", { word, term: term.term })
          );
        }
      }
      if (term.translation) {
        parts.push(`${term.term} → ${term.translation}${found(text, term.translation) ? " (used)" : ""}`);
      }
    }
    const words = [parts.length ? _("Glossary: %(terms)s.", { terms: parts.join("; ") }) : "", ...warnings].filter(Boolean).join(" ");
    if (hint.textContent !== words) hint.textContent = words;
    hint.classList.toggle("warn", warnings.length > 0);
    hint.hidden = words === "";
  }

  watch();
  apply(Array.from(tbody.querySelectorAll("tr")));
})();
