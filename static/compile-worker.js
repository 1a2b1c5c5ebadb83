// Backoff Playground's compiler of app.wasm, off the page's main thread.
// The page (app.js) starts it on a first visit and posts {wasm: the
// module's address, exec: wasm_exec.js's, query: the page's, lesson: the
// element holding a lesson page's text, {id, key, body}, or null}; it fetches
// the module, compiles it as the bytes arrive, warms it (warm) and posts
// the compiled WebAssembly.Module back ({module, warmed: whether the
// program ran its errand to the end}), or what went wrong ({error}),
// whereupon the page compiles on its own. Compiled on the page's thread,
// the bytes' arrival, the compiler's steps and its end were tasks of 10-50
// ms each on that thread, and a browser with its developer tools' network
// panel open (Lighthouse has it) copied the 10 MB response there in one
// task of 80-200 ms of CPU; here they hold only this thread.
onmessage = async (e) => {
  const {wasm, exec, query, lesson} = e.data;
  try {
    const r = await fetch(wasm);
    if (!r.ok) throw new Error(wasm + ': HTTP ' + r.status);
    // The type is set here, so that a static host that sends app.wasm
    // with another type still gets it compiled.
    const module = await WebAssembly.compileStreaming(new Response(r.body, {headers: {'Content-Type': 'application/wasm'}}));
    let warmed = false;
    if (exec) {
      try {
        warmed = await warm(module, exec, query, lesson);
      } catch (err) {
        console.warn('compile-worker.js: warming app.wasm:', err);
      }
    }
    postMessage({module, warmed});
  } catch (err) {
    postMessage({error: String((err && err.message) || err)});
  }
};

// warmMost is how long the page waits for the warming: past it, the page
// gets the module as it is and compiles what it calls that is not yet.
const warmMost = 3000;

// warm runs the program here before the page does. V8 compiles a
// WebAssembly function on its first call, on the thread that calls it, and
// the page's instance shares the compiled code of this one (one module):
// what runs here, the page runs compiled. Compiling on its first calls was
// half and more of the CPU of the start's longest tasks on the page's
// thread. The program learns its errand from backoffWarm (its query), says
// it knows it by setting accepted before its first pause, draws what the
// page will and ends; a program that does not know it (another app.wasm)
// has its runtime's start and its packages' init warmed, and is left
// where it paused (the page ends this worker).
async function warm(module, exec, query, lesson) {
  importScripts(exec);
  self.backoffWarm = {query};
  pretendPage(lesson);
  const go = new Go();
  const instance = await WebAssembly.instantiate(module, go.importObject);
  const ended = go.run(instance); // runs until the program's first pause
  if (!self.backoffWarm.accepted) return false;
  let timer;
  const done = await Promise.race([ended.then(() => true), new Promise(r => { timer = setTimeout(r, warmMost, false); })]);
  clearTimeout(timer);
  return done;
}

// pretendPage gives this worker the little of a page the program's first
// render and mount touch: a document of plain objects that keep a tree
// (go-app's mount creates, appends, replaces and sets attributes), storage
// that holds nothing and a history that goes nowhere. Nothing is drawn;
// what the program asks of it that it lacks throws, the program's render
// stops there, and what ran before is warm all the same. Its one element
// found by id is the lesson's text the page carries (lesson), so that a
// lesson is drawn here whole.
function pretendPage(lesson) {
  class Node {
    constructor(nodeType, nodeName, nodeValue = null) {
      Object.assign(this, {nodeType, nodeName, tagName: nodeName, nodeValue, childNodes: [], parentNode: null, attributes: {}, dataset: {}, style: {setProperty() {}, removeProperty() {}}});
    }
    get firstChild() { return this.childNodes[0] || null; }
    get firstElementChild() { return this.childNodes.find(c => c.nodeType === 1) || null; }
    get parentElement() { return this.parentNode; }
    get children() { return this.childNodes.filter(c => c.nodeType === 1); }
    // go-app mounts raw HTML as the first child of a wrapper's innerHTML.
    set innerHTML(v) { this.childNodes = []; this.appendChild(new Node(1, 'DIV')); }
    appendChild(c) { return this.insertBefore(c, null); }
    insertBefore(c, ref) {
      if (c.parentNode) c.parentNode.removeChild(c);
      const i = ref ? this.childNodes.indexOf(ref) : -1;
      this.childNodes.splice(i < 0 ? this.childNodes.length : i, 0, c);
      c.parentNode = this;
      return c;
    }
    removeChild(c) {
      const i = this.childNodes.indexOf(c);
      if (i >= 0) this.childNodes.splice(i, 1);
      c.parentNode = null;
      return c;
    }
    replaceChild(c, old) { this.insertBefore(c, old); return this.removeChild(old); }
    remove() { if (this.parentNode) this.parentNode.removeChild(this); }
    setAttribute(k, v) { this.attributes[k] = String(v); }
    getAttribute(k) { return k in this.attributes ? this.attributes[k] : null; }
    hasAttribute(k) { return k in this.attributes; }
    removeAttribute(k) { delete this.attributes[k]; }
    addEventListener() {}
    removeEventListener() {}
    querySelector() { return null; }
    querySelectorAll() { return []; }
    getBoundingClientRect() { return {x: 0, y: 0, top: 0, left: 0, right: 0, bottom: 0, width: 0, height: 0}; }
    focus() {}
    blur() {}
    scrollIntoView() {}
  }
  const html = new Node(1, 'HTML'), head = new Node(1, 'HEAD'), body = new Node(1, 'BODY');
  html.appendChild(head);
  html.appendChild(body);
  body.appendChild(new Node(1, 'DIV'));
  const none = () => null;
  const storage = {getItem: none, setItem() {}, removeItem() {}, clear() {}, length: 0};
  Object.assign(self, {
    localStorage: storage, sessionStorage: storage,
    history: {pushState() {}, replaceState() {}, state: null},
    matchMedia: () => ({matches: false, addEventListener() {}, removeEventListener() {}}),
    document: {
      documentElement: html, head, body, title: '',
      createElement: t => new Node(1, t.toUpperCase()),
      createElementNS: (ns, t) => new Node(1, t),
      createTextNode: v => new Node(3, '#text', String(v)),
      getElementById: id => lesson && id === lesson.id ? {id, dataset: {key: lesson.key, body: lesson.body}} : null,
      querySelector: none, querySelectorAll: () => [],
      addEventListener() {}, removeEventListener() {},
    },
  });
}
