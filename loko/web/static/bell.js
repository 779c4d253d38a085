// The bell in the page header: the signed-in person's unread notifications, asked for on
// load and then every minute while the page is open.
(function () {
  "use strict";
  const ngettext = (singular, plural, count, values) => window.Loko.ngettext(singular, plural, count, values);
  const _ = (message, values) => window.Loko._(message, values);
  const bell = document.getElementById("bell");
  if (!bell) return;
  const count = document.getElementById("bell-count");
  async function refresh() {
    try {
      const response = await fetch(bell.dataset.unreadUrl, { credentials: "same-origin" });
      if (!response.ok) return;
      const data = await response.json();
      const unread = data.unread || 0;
      count.textContent = unread > 99 ? "99+" : String(unread);
      count.hidden = unread === 0;
      bell.setAttribute("aria-label", unread ? ngettext("Notifications: %(num)s unread", "Notifications: %(num)s unread", unread) : _("Notifications"));
    } catch (error) {
      // Offline for a moment: the next poll tries again.
    }
  }
  refresh();
  setInterval(refresh, 60000);
})();
