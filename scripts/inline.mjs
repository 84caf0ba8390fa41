// Turns the Trunk build in dist/ into one self-contained HTML file (for file:// and mail
// attachments): the CSS in a <style>, the wasm-bindgen glue and worker.js as blob: URLs, the
// wasm as base64 (the page's, and the Share worker's, made a blob: URL when the panel opens),
// the rules' prose (dist/prose/<lang>/<id>.json) as one JSON table the page and its worker
// read instead of fetching (src/browser/prose.rs). Usage:
// node scripts/inline.mjs [dist-dir] [out-file]
import fs from 'node:fs';
import path from 'node:path';

const dist = path.resolve(process.argv[2] || 'dist');
const out = path.resolve(process.argv[3] || 'dist-single/trace-doctor.html');
const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
const files = fs.readdirSync(dist);
const one = (re, what) => {
  const hits = files.filter((f) => re.test(f));
  if (hits.length !== 1) throw new Error(`expected one ${what} in ${dist}, found ${JSON.stringify(hits)}`);
  return fs.readFileSync(path.join(dist, hits[0]));
};
const css = one(/^main-.*\.css$/, 'stylesheet').toString('utf8');
const glue = one(/^trace-doctor-web(-[0-9a-f]+)?\.js$/, 'wasm-bindgen glue').toString('utf8');
const wasm = one(/^trace-doctor-web(-[0-9a-f]+)?_bg\.wasm$/, 'wasm module');
const worker = fs.readFileSync(path.join(dist, 'worker.js'), 'utf8');
// The Share panel's worker (src/bin/share.rs): its own glue and module (Trunk names a worker's
// files without a hash).
const shareGlue = fs.readFileSync(path.join(dist, 'trace-doctor-share.js'), 'utf8');
const shareWasm = fs.readFileSync(path.join(dist, 'trace-doctor-share_bg.wasm'));
// Runs in the Share worker (a classic worker from a blob: URL, as the diagnosis worker): imports
// the glue from a blob: URL it makes itself and starts the module from its bytes; says why when
// it cannot (src/app/share_worker.rs reads [2, reason]).
const shareLoader = `(async () => {
  const bindings = await import(URL.createObjectURL(new Blob([glue], { type: 'text/javascript' })));
  await bindings.default({ module_or_path: Uint8Array.from(atob(wasm), (c) => c.charCodeAt(0)) });
})().catch((e) => self.postMessage([2, String((e && e.message) || e)]));`;
// {"en/<id>": "<json>", …}: every prose file, by its path under prose/ without `.json`.
const prose = {};
for (const lang of fs.readdirSync(path.join(dist, 'prose')).sort()) {
  for (const f of fs.readdirSync(path.join(dist, 'prose', lang)).sort()) {
    if (f.endsWith('.json')) prose[`${lang}/${f.slice(0, -5)}`] = fs.readFileSync(path.join(dist, 'prose', lang, f), 'utf8');
  }
}
if (Object.keys(prose).length === 0) throw new Error(`no prose files in ${dist}/prose`);

// JSON string literals, safe inside <script> (no "</script" or "<!--" can appear).
const lit = (s) => JSON.stringify(s).replace(/</g, '\\u003c');

const boot = `<script type="module">
const blobUrl = (...parts) => URL.createObjectURL(new Blob(parts, { type: 'text/javascript' }));
const prose = document.getElementById('trace-doctor-prose').textContent;
window.__traceDoctorProse = JSON.parse(prose);
window.__traceDoctorWorkerUrl = blobUrl(${lit(`self.__traceDoctorGlue = ${lit(glue)};\nself.__traceDoctorProse = `)}, prose, ${lit(`;\n${worker}`)});
// The Share worker's script, made when the Share panel first asks for it (its module's text is
// read now: the app replaces the body's elements when it starts).
const shareWasm = document.getElementById('trace-doctor-share-wasm').textContent.trim();
let shareUrl;
Object.defineProperty(window, '__traceDoctorShareWorkerUrl', { get() {
  if (!shareUrl) {
    const wasm = shareWasm;
    shareUrl = blobUrl(${lit('const glue = ' + lit(shareGlue) + ';\nconst wasm = ')}, JSON.stringify(wasm), ${lit(';\n' + shareLoader)});
  }
  return shareUrl;
} });
const bindings = await import(blobUrl(${lit(glue)}));
const b64 = document.getElementById('trace-doctor-wasm').textContent.trim();
const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
const wasm = await bindings.default({ module_or_path: bytes });
window.wasmBindings = bindings;
dispatchEvent(new CustomEvent('TrunkApplicationStarted', { detail: { wasm } }));
</script>`;

let page = html
  // Trunk's stylesheet link and preload hints, and index.html's start script (the single file
  // has no first view: everything is in the file, the app shows the diagnosis).
  .replace(/<link rel="stylesheet"[^>]*>/, () => `<style>\n${css}</style>`)
  .replace(/<script type="module"( async)?>[\s\S]*?<\/script>/, () => boot)
  .replace(/<script>window\.__traceDoctorApp = [^<]*<\/script>/, '')
  .replace(/<link rel="modulepreload"[^>]*>/g, '')
  .replace(/<link rel="preload"[^>]*>/g, '')
  .replace(/<!-- Big inputs[^>]*-->/, '')
  // Workers come from blob: URLs; there is no server to fetch from.
  .replace("worker-src 'self'", "worker-src 'self' blob:")
  .replace("script-src 'self'", "script-src 'self' blob:");
page = page.replace(
  '</body>',
  () => `<script type="application/json" id="trace-doctor-prose">${lit(prose)}</script>\n`
    + `<script type="application/octet-stream" id="trace-doctor-wasm">${wasm.toString('base64')}</script>\n`
    + `<script type="application/octet-stream" id="trace-doctor-share-wasm">${shareWasm.toString('base64')}</script>\n</body>`,
);
const leftover = /(?:href|src)="(?![a-z]+:)[^"]+\.(?:css|js|wasm)"/.exec(page);
if (leftover) throw new Error(`the single file still refers to a file: ${leftover[0]}`);
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, page);
console.error(`[single] ${out}: ${page.length} bytes (wasm ${wasm.length} bytes as base64)`);
