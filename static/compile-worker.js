// Backoff Playground's compiler of app.wasm, off the page's main thread.
// The page (app.js) starts it on a first visit and posts the module's
// address; it fetches the module, compiles it as the bytes arrive and
// posts the compiled WebAssembly.Module back ({module}), or what went
// wrong ({error}), whereupon the page compiles on its own. Compiled on the
// page's thread, the bytes' arrival, the compiler's steps and its end were
// tasks of 10-50 ms each on that thread, and a browser with its developer
// tools' network panel open (Lighthouse has it) copied the 10 MB response
// there in one task of 80-200 ms of CPU; here they hold only this thread.
onmessage = async (e) => {
  try {
    const r = await fetch(e.data);
    if (!r.ok) throw new Error(e.data + ': HTTP ' + r.status);
    // The type is set here, so that a static host that sends app.wasm
    // with another type still gets it compiled.
    const module = await WebAssembly.compileStreaming(new Response(r.body, {headers: {'Content-Type': 'application/wasm'}}));
    postMessage({module});
  } catch (err) {
    postMessage({error: String((err && err.message) || err)});
  }
};
