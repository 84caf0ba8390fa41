// Trace Doctor's diagnosis worker (src/app/worker.rs). The page sends [glueUrl, wasmModule]: the
// wasm-bindgen glue of the page itself and its already compiled WebAssembly.Module, so nothing is
// downloaded or compiled twice. Instantiating runs the module's start function, which sees no
// `window` and takes over this worker's messages.
self.onmessage = async (event) => {
  self.onmessage = null;
  const [glue, module] = event.data;
  try {
    const bindings = await import(glue);
    await bindings.default({ module_or_path: module });
  } catch (e) {
    self.postMessage([3, String((e && e.message) || e)]);
  }
};
