// Trace Doctor's diagnosis worker (src/app/worker.rs). The page sends [glueUrl, wasmModule]: the
// wasm-bindgen glue of the page itself and its already compiled WebAssembly.Module, so nothing is
// downloaded or compiled twice. Instantiating runs the module's start function, which sees no
// `window` and takes over this worker's messages.
self.onmessage = async (event) => {
  self.onmessage = null;
  const [glue, module, warmUp] = event.data;
  // Whether to warm the compiler up once ready: the page's first worker only (src/app/worker.rs).
  self.__traceDoctorWarmUp = warmUp === true;
  try {
    // The single-file build puts the glue's source here (a page's blob: URL cannot be imported
    // by a worker of a file:// page, a blob: URL the worker makes itself can).
    const src = self.__traceDoctorGlue;
    const url = src ? URL.createObjectURL(new Blob([src], { type: 'text/javascript' })) : glue;
    const bindings = await import(url);
    await bindings.default({ module_or_path: module });
  } catch (e) {
    self.postMessage([3, String((e && e.message) || e)]);
  }
};
