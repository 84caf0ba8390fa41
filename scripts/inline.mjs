// Turns the Trunk build in dist/ into one self-contained HTML file (for file:// and mail
// attachments): the CSS in a <style>, the wasm-bindgen glue and worker.js as blob: URLs, the
// wasm as base64, the rules' prose (dist/prose/<lang>/<id>.json) as one JSON table the page and
// its worker read instead of fetching (src/app/prose.rs). Usage:
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
const glue = one(/^trace-doctor-web-.*\.js$/, 'wasm-bindgen glue').toString('utf8');
const wasm = one(/^trace-doctor-web-.*_bg\.wasm$/, 'wasm module');
const worker = fs.readFileSync(path.join(dist, 'worker.js'), 'utf8');
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
const bindings = await import(blobUrl(${lit(glue)}));
const b64 = document.getElementById('trace-doctor-wasm').textContent.trim();
const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
const wasm = await bindings.default({ module_or_path: bytes });
window.wasmBindings = bindings;
dispatchEvent(new CustomEvent('TrunkApplicationStarted', { detail: { wasm } }));
</script>`;

let page = html
  // Trunk's stylesheet link, boot script and preload hints.
  .replace(/<link rel="stylesheet"[^>]*>/, () => `<style>\n${css}</style>`)
  .replace(/<script type="module">[\s\S]*?<\/script>/, () => boot)
  .replace(/<link rel="modulepreload"[^>]*>/g, '')
  .replace(/<link rel="preload"[^>]*>/g, '')
  .replace(/<!-- Big inputs[^>]*-->/, '')
  // Workers come from blob: URLs; there is no server to fetch from.
  .replace("worker-src 'self'", "worker-src 'self' blob:")
  .replace("script-src 'self'", "script-src 'self' blob:");
page = page.replace(
  '</body>',
  () => `<script type="application/json" id="trace-doctor-prose">${lit(prose)}</script>\n`
    + `<script type="application/octet-stream" id="trace-doctor-wasm">${wasm.toString('base64')}</script>\n</body>`,
);
const leftover = /(?:href|src)="(?![a-z]+:)[^"]+\.(?:css|js|wasm)"/.exec(page);
if (leftover) throw new Error(`the single file still refers to a file: ${leftover[0]}`);
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, page);
console.error(`[single] ${out}: ${page.length} bytes (wasm ${wasm.length} bytes as base64)`);
