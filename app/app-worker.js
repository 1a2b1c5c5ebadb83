// The playground's service worker: go-app's, with two changes so that after
// one visit every link works offline. A page is the same file whatever its
// query (the query is read in the browser), so a navigation is answered
// from the cached page ignoring its query; and the lessons are cached with
// the rest on install. A new version asks the host for each file again
// (no-cache: a conditional request, so an unchanged app.wasm costs a 304)
// rather than taking the browser's HTTP cache's copy: a static host sends
// Cache-Control: max-age=600 (GitHub Pages) or nothing (then a file is
// fresh for a tenth of its age), and the new cache held the old style sheet.
const cacheName = "app-" + "{{.Version}}";
const resourcesToCache = {{.ResourcesToCache}};

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(cacheName);
    await cache.addAll(resourcesToCache.map((url) => new Request(url, { cache: "no-cache" })));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const keys = await caches.keys();
    await Promise.all(keys.filter((k) => k !== cacheName).map((k) => caches.delete(k)));
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") {
    return;
  }
  event.respondWith((async () => {
    const navigate = request.mode === "navigate";
    const cached = await caches.match(request, { ignoreSearch: navigate });
    if (cached) {
      return cached;
    }
    const response = await fetch(request);
    // The Import panel's readers are fetched when it is first used, not
    // on install (a megabyte most visitors never need), and kept from
    // then on, so that they read offline too.
    if (response.ok && new URL(request.url).pathname.endsWith("/web/import.wasm")) {
      const cache = await caches.open(cacheName);
      await cache.put(request, response.clone());
    }
    return response;
  })());
});
