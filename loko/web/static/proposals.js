// The review queue's keyboard: j / ArrowDown and k / ArrowUp move between proposals, a accepts
// the one in focus and r rejects it (with the reason typed in its row). Typing in a field is
// left alone. "Select all" ticks every proposal of the page for the bulk forms.
(function () {
  "use strict";
  var table = document.querySelector("[data-proposal-queue]");
  if (!table) {
    return;
  }
  var rows = Array.prototype.slice.call(table.querySelectorAll("tr[data-proposal]"));

  function current() {
    var active = document.activeElement;
    return active ? active.closest("tr[data-proposal]") : null;
  }

  function focusRow(index) {
    if (!rows.length) {
      return;
    }
    var target = rows[Math.max(0, Math.min(rows.length - 1, index))];
    rows.forEach(function (row) {
      row.tabIndex = row === target ? 0 : -1;
    });
    target.focus();
  }

  function submit(row, selector) {
    var form = row.querySelector(selector);
    if (!form) {
      return;
    }
    var button = form.querySelector("button[name=action]");
    if (typeof form.requestSubmit === "function") {
      form.requestSubmit(button);
    } else {
      button.click();
    }
  }

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) {
      return;
    }
    var target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) {
      return;
    }
    var row = current();
    var index = row ? rows.indexOf(row) : -1;
    if (event.key === "j" || event.key === "ArrowDown") {
      event.preventDefault();
      focusRow(index + 1);
    } else if (event.key === "k" || event.key === "ArrowUp") {
      event.preventDefault();
      focusRow(index < 0 ? 0 : index - 1);
    } else if (event.key === "a" && row) {
      event.preventDefault();
      submit(row, "form[data-accept]");
    } else if (event.key === "r" && row) {
      event.preventDefault();
      submit(row, "form[data-reject]");
    }
  });

  var all = document.querySelector("[data-select-all]");
  if (all) {
    all.addEventListener("change", function () {
      table.querySelectorAll("input[name=proposalId]").forEach(function (box) {
        box.checked = all.checked;
      });
    });
  }
})();
