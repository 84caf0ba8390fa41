#!/usr/bin/env bash
# Installs the tools, builds the release page, and serves dist/ on http://127.0.0.1:${PORT:-8080}/.
set -euo pipefail
cd "$(dirname "$0")/.."

PORT="${PORT:-8080}"

bash scripts/setup.sh
bash scripts/build.sh

echo "Trace Doctor: http://127.0.0.1:${PORT}/  (Ctrl+C stops the server)"
# http.server with explicit MIME types: the wasm must be application/wasm for streaming compilation.
exec python3 - "$PORT" "$PWD/dist" <<'PY'
import functools, http.server, sys

port, root = int(sys.argv[1]), sys.argv[2]

class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".js": "text/javascript",
        ".mjs": "text/javascript",
        ".css": "text/css",
        ".html": "text/html",
        ".json": "application/json",
        ".svg": "image/svg+xml",
    }

    def end_headers(self):
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

server = http.server.ThreadingHTTPServer(("127.0.0.1", port), functools.partial(Handler, directory=root))
try:
    server.serve_forever()
except KeyboardInterrupt:
    pass
PY
