// Backoff Playground embeds: size each playground iframe on this page to the
// height its page reports, so it shows whole, without a scrollbar of its own.
// The playground posts {type: "backoff-playground:height", height: N} to its
// parent whenever its height changes. No inline code is needed on the host
// page: load this file with <script src="…/web/static/embed.js" defer>, or
// copy it into your own scripts.
addEventListener('message', (e) => {
  const d = e.data;
  if (!d || d.type !== 'backoff-playground:height' || !(d.height > 0 && d.height < 100000)) return;
  for (const f of document.querySelectorAll('iframe')) {
    if (f.contentWindow === e.source) f.height = String(Math.ceil(d.height));
  }
});
