// Plural forms in the editor: a value holding an ICU plural (``{count, plural, one {# file}
// other {# files}}``) is edited as one field per CLDR plural category of the value's
// language, each with example numbers, and written back as the ICU message. The text
// around the plural, and any nested select or plural inside a form, stay editable as they
// are written. The editor keeps the message itself in its textarea: the fields write it
// there on every keystroke, and read it again when it changes (a suggestion inserted), so
// the save, the checks and the suggestions see one text. "Edit as ICU text" shows the
// textarea itself.
(function () {
  "use strict";
  const _ = (message, values) => window.Loko._(message, values);

  // CLDR's order of the categories (the page's JSON sorts its keys by name).
  const ORDER = ["zero", "one", "two", "few", "many", "other"];
  const HEAD = /^\{\s*([^\s{}',#]+)\s*,\s*(plural|selectordinal)\s*,\s*(offset\s*:\s*\d+\s*)?/;
  const SELECTOR = /^(=\d+|[a-z]+)\s*\{/;

  // The position just after an apostrophe's quoting: ``''`` is one apostrophe, an
  // apostrophe before a syntax character quotes up to the next lone apostrophe.
  function afterQuote(text, at) {
    const next = text[at + 1];
    if (next === "'") return at + 2;
    if (next === undefined || !"{}#|".includes(next)) return at + 1;
    let end = at + 1;
    for (;;) {
      end = text.indexOf("'", end);
      if (end < 0) return text.length;
      if (text[end + 1] === "'") {
        end += 2;
        continue;
      }
      return end + 1;
    }
  }

  // The position of the brace closing the one at ``open``, or -1.
  function closing(text, open) {
    let depth = 0;
    for (let at = open; at < text.length; ) {
      const character = text[at];
      if (character === "'") {
        at = afterQuote(text, at);
        continue;
      }
      if (character === "{") depth += 1;
      else if (character === "}") {
        depth -= 1;
        if (depth === 0) return at;
      }
      at += 1;
    }
    return -1;
  }

  function branches(body) {
    const forms = [];
    let at = 0;
    for (;;) {
      while (at < body.length && /\s/.test(body[at])) at += 1;
      if (at >= body.length) return forms.length ? forms : null;
      const match = SELECTOR.exec(body.slice(at));
      if (!match) return null;
      const open = at + match[0].length - 1;
      const close = closing(body, open);
      if (close < 0 || forms.some((form) => form.selector === match[1])) return null;
      forms.push({ selector: match[1], text: body.slice(open + 1, close) });
      at = close + 1;
    }
  }

  // The first plural (or selectordinal) of ``text`` outside any other argument: the text
  // before and after it, its argument, kind and offset, and its forms as written; or null.
  function split(text) {
    for (let at = 0; at < text.length; ) {
      const character = text[at];
      if (character === "'") {
        at = afterQuote(text, at);
        continue;
      }
      if (character === "}") return null;
      if (character !== "{") {
        at += 1;
        continue;
      }
      const end = closing(text, at);
      if (end < 0) return null;
      const head = HEAD.exec(text.slice(at, end + 1));
      if (head) {
        const forms = branches(text.slice(at + head[0].length, end));
        if (!forms) return null;
        return {
          before: text.slice(0, at),
          after: text.slice(end + 1),
          argument: head[1],
          kind: head[2],
          offset: head[3] ? head[3].trim() + " " : "",
          forms,
        };
      }
      at = end + 1;
    }
    return null;
  }

  // The message of ``parts``: forms left empty are left out; nothing at all is "".
  function join(parts) {
    const forms = parts.forms.filter((form) => form.text !== "");
    if (!forms.length) return parts.before + parts.after;
    const body = forms.map((form) => `${form.selector} {${form.text}}`).join(" ");
    return `${parts.before}{${parts.argument}, ${parts.kind}, ${parts.offset}${body}}${parts.after}`;
  }

  // The fields to show: exact selectors first, then the language's categories, then forms
  // the value has that the language does not use (kept, marked, so that nothing is lost).
  function fieldsOf(parts, categories) {
    const has = new Map(parts.forms.map((form) => [form.selector, form.text]));
    const exact = parts.forms.filter((form) => form.selector.startsWith("="));
    const unused = parts.forms.filter(
      (form) => !form.selector.startsWith("=") && !categories.includes(form.selector)
    );
    return [
      ...exact.map((form) => ({ selector: form.selector, text: form.text, used: true })),
      ...categories.map((category) => ({ selector: category, text: has.get(category) || "", used: true })),
      ...unused.map((form) => ({ selector: form.selector, text: form.text, used: false })),
    ];
  }

  // The plural fields of one cell's editor, or null when neither the value nor (for an
  // empty value) the source holds a plural. ``options``: textarea, language, languageName,
  // key, examples ({plural: {category: "1, 21, …"}, selectordinal: {...}}), source (the
  // source text), onChange().
  function attach(options) {
    const { textarea } = options;
    let parts = split(textarea.value);
    if (!parts && textarea.value === "" && options.source) {
      const template = split(options.source);
      if (template) {
        parts = { ...template, before: "", after: "", forms: [] };
        parts.hadBefore = template.before.trim() !== "";
        parts.hadAfter = template.after.trim() !== "";
      }
    }
    if (!parts) return null;

    const element = document.createElement("fieldset");
    element.className = "plural-forms";
    const legend = document.createElement("legend");
    element.append(legend);
    const list = document.createElement("div");
    list.className = "plural-fields";
    element.append(list);
    const toggle = document.createElement("button");
    toggle.type = "button";
    toggle.className = "small link-button";
    let fields = [];
    let asText = false;

    // The language's categories in CLDR order, each with its example numbers (the page's).
    function examplesOf(kind) {
      return (options.examples || {})[kind] || { other: "" };
    }

    function field(label, hint, value, name) {
      const wrapper = document.createElement("div");
      wrapper.className = "plural-field";
      const id = `pf-${Math.random().toString(36).slice(2)}`;
      const caption = document.createElement("label");
      caption.htmlFor = id;
      const word = document.createElement("span");
      word.className = "plural-category";
      word.textContent = label;
      caption.append(word);
      if (hint) {
        const numbers = document.createElement("span");
        numbers.className = "plural-examples small muted";
        numbers.textContent = hint;
        caption.append(" ", numbers);
      }
      const input = document.createElement("textarea");
      input.id = id;
      input.rows = Math.min(4, Math.max(1, value.split("\n").length));
      input.value = value;
      input.dataset.form = name;
      input.lang = textarea.lang;
      input.dir = textarea.dir;
      input.addEventListener("input", write);
      wrapper.append(caption, input);
      list.append(wrapper);
      return input;
    }

    function render() {
      list.textContent = "";
      const examples = examplesOf(parts.kind);
      const categories = ORDER.filter((category) => category in examples);
      legend.textContent = parts.kind === "plural" ? _("Plural forms of {%(argument)s} in %(language)s", { argument: parts.argument, language: options.languageName }) : _("Ordinal forms of {%(argument)s} in %(language)s", { argument: parts.argument, language: options.languageName });
      fields = [];
      if (parts.before !== "" || parts.hadBefore) {
        fields.push({ part: "before", input: field(_("Text before"), "", parts.before, "before") });
      }
      for (const form of fieldsOf(parts, categories)) {
        let hint = "";
        if (form.selector.startsWith("=")) hint = _("exactly %(number)s", { number: form.selector.slice(1) });
        else if (form.used) hint = examples[form.selector] || "";
        else hint = _("not used in %(language)s: empty it to remove it", { language: options.languageName });
        const input = field(form.selector, hint, form.text, form.selector);
        if (!form.used) input.closest(".plural-field").classList.add("unused");
        fields.push({ selector: form.selector, input });
      }
      if (parts.after !== "" || parts.hadAfter) {
        fields.push({ part: "after", input: field(_("Text after"), "", parts.after, "after") });
      }
    }

    function write() {
      const forms = [];
      for (const item of fields) {
        if (item.part) parts[item.part] = item.input.value;
        else forms.push({ selector: item.selector, text: item.input.value });
      }
      parts.forms = forms;
      textarea.value = join(parts);
      options.onChange();
    }

    function showText(on) {
      asText = on;
      list.hidden = on;
      textarea.hidden = !on;
      toggle.textContent = on ? _("Edit as plural forms") : _("Edit as ICU text");
      toggle.setAttribute("aria-pressed", String(on));
    }

    toggle.addEventListener("click", (event) => {
      event.stopPropagation();
      if (asText) {
        const again = split(textarea.value);
        if (!again) {
          window.Loko.announce(_("This text holds no plural to show as forms."));
          textarea.focus();
          return;
        }
        parts = again;
        render();
        showText(false);
        focus();
      } else {
        showText(true);
        textarea.focus();
      }
    });

    // The text changed from outside the fields (a suggestion inserted): read it again.
    function refresh() {
      const again = split(textarea.value);
      if (!again) {
        showText(true);
        return;
      }
      parts = again;
      render();
      if (!asText) showText(false);
    }

    function focus() {
      if (asText) {
        textarea.focus();
        return;
      }
      const empty = fields.find((item) => item.input.value === "");
      const target = (empty || fields[0]).input;
      target.focus();
      target.setSelectionRange(target.value.length, target.value.length);
    }

    render();
    showText(false);
    element.append(toggle);
    return { element, refresh, focus, fields: () => fields.map((item) => item.input), showsText: () => asText };
  }

  window.LokoPlurals = { split, join, attach };
})();
