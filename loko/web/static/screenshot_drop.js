// The Screenshots tab: images dropped anywhere on the upload card are uploaded, as if chosen
// in its Images field (which stays the way to choose them from the keyboard). Only PNG,
// JPEG and WebP files are taken; the server checks each again.
(function () {
  "use strict";
  const _ = (message, values) => window.Loko._(message, values);
  const ngettext = (singular, plural, count, values) => window.Loko.ngettext(singular, plural, count, values);
  const zone = document.querySelector("[data-drop-zone]");
  if (!zone) return;
  const input = zone.querySelector("input[type=file]");
  const status = zone.querySelector("[data-drop-status]");
  const TYPES = ["image/png", "image/jpeg", "image/webp"];
  let depth = 0;

  function hasFiles(event) {
    return Array.from(event.dataTransfer ? event.dataTransfer.types : []).includes("Files");
  }

  zone.addEventListener("dragenter", (event) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    depth += 1;
    zone.classList.add("dropping");
  });
  zone.addEventListener("dragover", (event) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
  });
  zone.addEventListener("dragleave", () => {
    depth = Math.max(0, depth - 1);
    if (!depth) zone.classList.remove("dropping");
  });
  zone.addEventListener("drop", (event) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    depth = 0;
    zone.classList.remove("dropping");
    const images = new DataTransfer();
    let left = 0;
    for (const file of event.dataTransfer.files) {
      if (TYPES.includes(file.type)) images.items.add(file);
      else left += 1;
    }
    if (!images.files.length) {
      status.textContent = _("Nothing to upload: drop PNG, JPEG or WebP images.");
      return;
    }
    input.files = images.files;
    const count = images.files.length;
    status.textContent = left
      ? ngettext("Uploading %(num)s image…", "Uploading %(num)s images…", count) +
        " " + ngettext("(%(num)s other file left out)", "(%(num)s other files left out)", left)
      : ngettext("Uploading %(num)s image…", "Uploading %(num)s images…", count);
    input.form.requestSubmit();
  });
})();
