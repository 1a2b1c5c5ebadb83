// The playground's service worker: go-app's, with two changes so that after
// one visit every link works offline. A navigation goes to the server
// unless the cache holds its very address (the bare page): the server sends
// the page the query names (a lesson's, a view's, the Russian one), and only
// when it cannot answer, or has not within serverWait, does the cached page
// stand in, whatever the query (the app reads the query in the browser and
// draws the linked page). Answered from the cache, such a link showed the
// whole English playground until app.wasm had started: a docs page's frame
// of ?view=table held it for seconds on a busy machine. And the lessons are
// cached with the rest on install. A new version asks the host for each
// file again (no-cache: a conditional request, so an unchanged app.wasm
// costs a 304) rather than taking the browser's HTTP cache's copy: a static
// host sends Cache-Control: max-age=600 (GitHub Pages) or nothing (then a
// file is fresh for a tenth of its age), and the new cache held the old
// style sheet.
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
    const cached = await caches.match(request);
    if (cached) {
      return cached;
    }
    if (request.mode === "navigate") {
      return fromServerElseCache(request);
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

// fromServerElseCache answers a navigation with the server's page or, when
// the server cannot answer (offline, a restart) or has not answered within
// serverWait, with the cached page whatever the query.
async function fromServerElseCache(request) {
  const server = fetch(request);
  server.catch(() => {}); // a late failure, once the cache has answered
  const late = new Promise((resolve) => setTimeout(resolve, serverWait));
  let response, failure;
  try {
    response = await Promise.race([server, late]); // undefined when late
    if (response && response.status < 500) {
      return response;
    }
  } catch (err) {
    failure = err;
  }
  const cached = await caches.match(request, { ignoreSearch: true });
  if (cached) {
    return cached;
  }
  if (failure) {
    throw failure;
  }
  return response || server; // nothing cached: the server's answer, however late
}

// serverWait is how long a navigation waits for the server before the
// cached page stands in: a venue's wifi that loses packets fails no
// request, it only never answers.
const serverWait = 3000;
