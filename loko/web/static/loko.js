// Loko's page enhancements: dates in the viewer's locale, copy buttons, confirmations, and
// a fetch helper that sends the page's CSRF token. Every page works without it.
(function () {
  "use strict";

  // The page's language: <html lang> and, for any language but English, the translations
  // of the scripts' messages in <html data-messages> (no inline script: the strict CSP).
  const pageLang = document.documentElement.lang || "en";
  let catalog = {};
  try {
    catalog = JSON.parse(document.documentElement.dataset.messages || "{}").messages || {};
  } catch (error) {
    catalog = {};
  }
  function fill(text, values) {
    return text.replace(/%\((\w+)\)s/g, (whole, name) => (values && name in values ? String(values[name]) : whole));
  }
  // _("Saved %(key)s", {key}) and ngettext("%(num)s key", "%(num)s keys", n): a message in
  // the page's language (CLDR's plural categories pick the form), values filled in.
  function _(message, values) {
    const found = catalog[message];
    return fill(typeof found === "string" && found ? found : message, values);
  }
  const pluralRules = new Intl.PluralRules(pageLang);
  function ngettext(singular, plural, count, values) {
    const forms = catalog[singular];
    const chosen = forms && typeof forms === "object" ? forms[pluralRules.select(count)] : null;
    return fill(chosen || (count === 1 ? singular : plural), { num: count, ...values });
  }

  function csrfToken() {
    const meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.content : "";
  }

  async function api(method, url, body) {
    const options = { method, credentials: "same-origin", headers: { "X-CSRF-Token": csrfToken() } };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    const response = await fetch(url, options);
    let data = null;
    try { data = await response.json(); } catch (error) { data = null; }
    if (!response.ok && data && typeof data.error === "string" && document.documentElement.dataset.refusals) {
      data.error = inPageLanguage(await refusalTable(), data.error, 0, data.details);
    }
    return { ok: response.ok, status: response.status, data };
  }

  // The API words its refusals in English; a script shows them in the page's language
  // through the table of the service's messages (<html data-refusals>, read once, at the
  // first refusal): the pattern that matches, translated, with its parameters put back
  // (a product word or a refusal quoted in it translated too). Anything else as it is.
  let refusals = null;
  function refusalTable() {
    if (!refusals) {
      refusals = fetch(document.documentElement.dataset.refusals, { credentials: "same-origin" })
        .then((response) => (response.ok ? response.json() : null))
        .then((table) => table && {
          labels: table.labels || {},
          patterns: table.refusals.map(([msgid, text]) => [refusalPattern(msgid), text]),
          issues: table.issues || null,
        })
        .catch(() => null);
    }
    return refusals;
  }
  // A refusal's literal parts and its parameters' names; a message matches when it is those
  // parts in order (each at its first place after the one before, the last at the end).
  function refusalPattern(msgid) {
    const parts = msgid.split(/%\((\w+)\)s/);
    return {
      literals: parts.filter((part, index) => index % 2 === 0).map((part) => part.replace(/%%/g, "%")),
      names: parts.filter((part, index) => index % 2 === 1),
    };
  }
  function matchRefusal({ literals, names }, message) {
    const first = literals[0];
    const last = literals[literals.length - 1];
    if (!names.length) return message === first ? {} : null;
    const end = message.length - last.length;
    if (end < first.length || !message.startsWith(first) || !message.endsWith(last)) return null;
    const values = {};
    let position = first.length;
    for (let index = 0; index < names.length - 1; index += 1) {
      const literal = literals[index + 1];
      const found = message.indexOf(literal, position);
      if (found < 0 || found + literal.length > end) return null;
      values[names[index]] = message.slice(position, found);
      position = found + literal.length;
    }
    values[names[names.length - 1]] = message.slice(position, end);
    return values;
  }
  function inPageLanguage(table, message, depth, details) {
    if (!table || !message || depth > 2) return message;
    if (depth === 0 && table.issues && details && Array.isArray(details.issues)) {
      const refused = refusedFromIssues(table.issues, message, details.issues);
      if (refused !== null) return refused;
    }
    for (const [pattern, text] of table.patterns) {
      const found = matchRefusal(pattern, message);
      if (!found) continue;
      const values = {};
      for (const [name, value] of Object.entries(found)) {
        values[name] = value.includes(" ") ? inPageLanguage(table, value, depth + 1) : productWord(table, value);
      }
      return fill(text, values);
    }
    const refused = depth === 0 && table.issues ? refusedText(table.issues, message) : null;
    if (refused !== null) return refused;
    const prefixed = /^([\w.[\]-]+): ([\s\S]+)$/.exec(message);
    if (prefixed) {
      const rest = inPageLanguage(table, prefixed[2], depth + 1);
      if (rest !== prefixed[2]) return `${prefixed[1]}: ${rest}`;
    }
    return productWord(table, message);
  }
  function productWord(table, text) {
    return Object.prototype.hasOwnProperty.call(table.labels, text) ? table.labels[text] : text;
  }

  // What the checks found, as a check's refusal of a save quotes it, in the page's language:
  // the steps of loko/web/issue_texts.py (which shows the stored issues) over its table.
  const RUN = /^([0-9]+) (space|tab|newline|carriage return)s$/;
  const SENTENCE = /\. (?=The )/;
  const COUNT = /^[0-9]{1,9}$/;
  const DEEPEST = 3;
  const REFUSAL_PARTS = /: ([a-z]+(?:-[a-z]+)*): /;
  function issuePatterns(issues) {
    if (!issues.compiled) {
      issues.compiled = {
        sentences: issues.sentences.map(([msgid, text]) => [refusalPattern(msgid), text]),
        clauses: issues.clauses.map(([msgid, text]) => [refusalPattern(msgid), text]),
      };
    }
    return issues.compiled;
  }
  // The form is the count's (any other text counts as many); the count is shown as written.
  function issueForm(text, values) {
    if (typeof text === "string") return fill(text, values);
    const count = COUNT.test(String(values.num)) ? Number(values.num) : 2;
    return fill(text[pluralRules.select(count)] || text.other, values);
  }
  function translateIssue(issues, patterns, text, depth = 0) {
    if (depth > DEEPEST) return null;
    for (const [pattern, translated] of patterns) {
      const found = matchRefusal(pattern, text);
      if (!found) continue;
      const values = {};
      for (const [name, value] of Object.entries(found)) values[name] = issueParameter(issues, value, depth + 1);
      return issueForm(translated, values);
    }
    return null;
  }
  function issueParameter(issues, value, depth) {
    if (Object.prototype.hasOwnProperty.call(issues.phrases, value)) return issues.phrases[value];
    const runs = value.split(" then ");
    if (runs.length > 1 || RUN.test(value)) {
      const described = runs.map((run) => issueRun(issues, run));
      if (described.every((text) => text !== null)) {
        return described.reduce((before, after) => fill(issues.then, { before, after }));
      }
    }
    const compiled = issuePatterns(issues);
    return translateIssue(issues, compiled.sentences, value, depth) ?? translateIssue(issues, compiled.clauses, value, depth) ?? value;
  }
  function issueRun(issues, run) {
    if (Object.prototype.hasOwnProperty.call(issues.phrases, run)) return issues.phrases[run];
    const found = RUN.exec(run);
    return found ? issueForm(issues.runs[found[2]], { num: found[1] }) : null;
  }
  // A check's message translated, or null when it is none of them.
  function issueText(issues, message) {
    const compiled = issuePatterns(issues);
    const parts = message.split(SENTENCE);
    const sentences = parts.map((sentence, index) => (index < parts.length - 1 ? `${sentence}.` : sentence));
    if (sentences.length > 1) {
      const translated = sentences.map((sentence) => translateIssue(issues, compiled.sentences, sentence));
      if (translated.every((text) => text !== null)) return translated.join(" ");
    }
    const whole = translateIssue(issues, compiled.sentences, message);
    if (whole !== null) return whole;
    if (!message.endsWith(".")) return null;
    const clauses = message.slice(0, -1).split("; ").map((clause) => translateIssue(issues, compiled.clauses, clause));
    if (clauses.some((text) => text === null)) return null;
    const joined = clauses.reduce((before, clause) => fill(issues.next, { clauses: before, clause }));
    return fill(issues.last, { clauses: joined });
  }
  // A check's refusal of a write from its issues (the answer's details.issues): each
  // issue's place, check and message as the service joined them, the message translated.
  const PLACES = [
    (issue) => `updates.${issue.language}.value`,
    (issue) => `${issue.fileName} ${issue.key} (${issue.language})`,
  ];
  function refusedFromIssues(issues, message, list) {
    if (!list.length || !list.every((issue) => issue && typeof issue === "object")) return null;
    for (const place of PLACES) {
      const parts = list.map((issue) => [place(issue), issue.check, String(issue.message)]);
      if (parts.map(([where, check, text]) => `${where}: ${check}: ${text}`).join(" ") === message) {
        return parts
          .map(([where, check, text]) => `${where}: ${check}: ${issueText(issues, text.replace(MISSPELLED, SPELLED)) ?? text}`)
          .join(" ");
      }
    }
    return null;
  }
  // How the address check wrote its plural before it spelled it right (issues stored then).
  const MISSPELLED = "the source's addresss ";
  const SPELLED = "the source's addresses ";
  // A check's refusal of a write known by its text alone: where each issue is, the check's code and its message,
  // joined with spaces; each message translated, the places and codes as they are (null
  // when a part is none of the checks' messages).
  function refusedText(issues, message) {
    const parts = message.split(REFUSAL_PARTS);
    if (parts.length < 3) return null;
    const places = [parts[0]];
    const shown = [];
    for (let index = 1; index < parts.length; index += 2) {
      let text = parts[index + 1];
      if (index + 2 < parts.length) {
        const end = text.lastIndexOf(". ");
        if (end < 0) return null;
        places.push(text.slice(end + 2));
        text = text.slice(0, end + 1);
      }
      const translated = issueText(issues, text);
      if (translated === null) return null;
      shown.push(`${places[(index - 1) / 2]}: ${parts[index]}: ${translated}`);
    }
    return shown.join(" ");
  }

  const dateFormat = new Intl.DateTimeFormat(pageLang, { dateStyle: "medium", timeStyle: "short" });
  function localDates(root) {
    root.querySelectorAll("time[datetime]").forEach((element) => {
      const value = new Date(element.getAttribute("datetime"));
      if (!Number.isNaN(value.getTime())) {
        element.title = element.getAttribute("datetime");
        element.textContent = dateFormat.format(value);
      }
    });
  }

  function announce(text) {
    let region = document.getElementById("loko-live");
    if (!region) {
      region = document.createElement("p");
      region.id = "loko-live";
      region.className = "sr-only";
      region.setAttribute("role", "status");
      document.body.appendChild(region);
    }
    region.textContent = "";
    setTimeout(() => { region.textContent = text; }, 30);
  }

  document.addEventListener("click", async (event) => {
    const button = event.target.closest("[data-copy]");
    if (!button) return;
    const source = document.getElementById(button.dataset.copy);
    if (!source) return;
    const text = source.value !== undefined ? source.value : source.textContent;
    try {
      await navigator.clipboard.writeText(text.trim());
      button.textContent = _("Copied");
      announce(_("Copied to the clipboard"));
    } catch (error) {
      const range = document.createRange();
      range.selectNodeContents(source);
      const selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      announce(_("Selected: press Ctrl+C to copy"));
    }
  });

  document.addEventListener("submit", (event) => {
    const message = event.target.dataset.confirm;
    if (message && !window.confirm(message)) event.preventDefault();
  });

  // Esc closes an open menu (the account menu) and puts the focus back on its button.
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || event.defaultPrevented) return;
    const menu = document.querySelector("details.menu[open]");
    if (!menu || document.querySelector("dialog[open]")) return;
    menu.open = false;
    menu.querySelector("summary").focus();
  });

  // A refused form's banner names fields as the API does ("code: …"); each such name
  // becomes the label of the page's field of that name ("Code: …").
  function labelOf(name) {
    for (const control of document.querySelectorAll(`form [name="${CSS.escape(name)}"]`)) {
      const label = control.labels && control.labels[0];
      const legend = control.closest("fieldset") && control.closest("fieldset").querySelector("legend");
      const text = (label || legend || {}).textContent;
      if (text && text.trim()) return text.replace(/\s+/g, " ").trim();
    }
    return null;
  }

  function inFormWords(root) {
    root.querySelectorAll('.error[role="alert"]').forEach((banner) => {
      const parts = banner.textContent.split("; ").map((part) => {
        const match = /^([A-Za-z_][\w.-]*): ([\s\S]*)$/.exec(part.trim());
        const label = match && labelOf(match[1]);
        return label ? `${label}: ${match[2]}` : part;
      });
      const text = parts.join("; ");
      if (text !== banner.textContent) banner.textContent = text;
    });
  }

  // The Jobs page: each queued or running job is looked at every few seconds; its progress
  // bar follows, and when its state changes the page is loaded again (with its result).
  const JOB_POLL_MS = 2000;
  function followJobs(root) {
    const rows = Array.from(root.querySelectorAll("[data-job-url]"));
    if (!rows.length) return;
    async function look() {
      for (const row of rows) {
        const answer = await api("GET", row.dataset.jobUrl);
        if (!answer.ok || !answer.data || !answer.data.job) continue;
        const job = answer.data.job;
        const total = job.progress.total === null ? "" : String(job.progress.total);
        if (job.state !== row.dataset.jobState || total !== row.dataset.jobTotal) {
          window.location.reload();
          return;
        }
        const bar = row.querySelector("progress[max]");
        const text = row.querySelector(".job-progress-text");
        if (bar && total) {
          bar.max = job.progress.total;
          bar.value = job.progress.done;
          bar.textContent = _("%(done)s of %(total)s", { done: job.progress.done, total });
        }
        if (text && total) text.textContent = _("%(done)s of %(total)s done", { done: job.progress.done, total });
      }
      setTimeout(look, JOB_POLL_MS);
    }
    setTimeout(look, JOB_POLL_MS);
  }

  document.addEventListener("DOMContentLoaded", () => {
    localDates(document);
    inFormWords(document);
    followJobs(document);
  });

  // A refusal the API answered (its error and details), in the page's language, as Loko.api
  // gives it: for a script that holds the answer some other way.
  async function refusal(message, details) {
    return document.documentElement.dataset.refusals ? inPageLanguage(await refusalTable(), message, 0, details) : message;
  }

  window.Loko = { api, refusal, csrfToken, localDates, announce, _, ngettext, lang: pageLang };
})();
