// Hands the splitter's loader an area's WASM files from one download.
//
// Called with the pack's address and its parts in order (each a file's
// path under the site and its length in bytes). The loader asks for each
// file with `fetch`; a file of the pack is cut from the pack's bytes (one
// request, preloaded by the page's head), any other request goes to the
// network unchanged, and if the pack cannot be had each file is fetched on
// its own as before. The page gets it without these comments; the code has
// no less-than sign, so it cannot end its script element early.
((pack, parts) => {
  const network = window.fetch.bind(window);
  const at = new Map();
  let offset = 0;
  for (const [path, length] of parts) {
    at.set(path, [offset, length]);
    offset += length;
  }
  let bytes;
  window.fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input), location.href);
    const part = url.origin === location.origin ? at.get(url.pathname) : undefined;
    if (part === undefined) {
      return network(input, init);
    }
    bytes ??= network(pack).then((answer) =>
      answer.ok ? answer.arrayBuffer() : Promise.reject(new Error(pack + ": " + answer.status)),
    );
    return bytes.then(
      (buffer) => {
        // Each file is handed out once (the loader keeps what it loaded);
        // once all are, the pack's bytes can go.
        at.delete(url.pathname);
        if (at.size === 0) {
          bytes = undefined;
        }
        return new Response(buffer.slice(part[0], part[0] + part[1]), {
          headers: { "Content-Type": "application/wasm" },
        });
      },
      () => network(input, init),
    );
  };
})
