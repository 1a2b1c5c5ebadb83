// Backoff Playground embeds: size each playground iframe on this page to the
// height its page reports, so it shows whole, without a scrollbar of its own,
// and take the border off the frames of class "backoff-playground".
// The playground posts {type: "backoff-playground:height", height: N} to its
// parent whenever its height changes. No inline code or style is needed on
// the host page, so a Content-Security-Policy without 'unsafe-inline' allows
// it: load this file with <script src="…/web/static/embed.js" defer> (allow
// its origin in script-src), or copy it into your own scripts. Without it,
// a frame keeps the height the snippet gives it, and its border unless your
// style sheet says: iframe.backoff-playground { border: 0; }
// A page with several snippets loads this file once per snippet: each copy
// keeps to its own scope, and doing the work twice changes nothing.
(() => {
  const frameClass = 'backoff-playground';
  // A style set from script is no inline style attribute: CSP allows it.
  const borderless = (f) => { if (f.classList.contains(frameClass)) f.style.border = '0'; };
  document.querySelectorAll('iframe.' + frameClass).forEach(borderless);
  addEventListener('message', (e) => {
    const d = e.data;
    if (!d || d.type !== 'backoff-playground:height' || !(d.height > 0 && d.height < 100000)) return;
    for (const f of document.querySelectorAll('iframe')) {
      if (f.contentWindow === e.source) {
        borderless(f);
        f.height = String(Math.ceil(d.height));
      }
    }
  });
})();
