// Chosen files for Tally's WASM bundle (the Data page's history import):
// window.tallyFiles.upload(input, url, csrf) sends the first chosen file's
// bytes as the body of a POST to url (with the file's name as fileName)
// and resolves to the answer as {"status": …, "body": "…"} text, or null
// when none is chosen.
"use strict";
(() => {
  window.tallyFiles = {
    async upload(input, url, csrf) {
      const file = input && input.files && input.files[0];
      if (!file) return null;
      const joiner = url.includes("?") ? "&" : "?";
      const response = await fetch(`${url}${joiner}fileName=${encodeURIComponent(file.name)}`, {
        method: "POST",
        headers: { "x-csrf-token": csrf, "content-type": "application/octet-stream" },
        body: file,
        credentials: "same-origin",
      });
      return JSON.stringify({ status: response.status, body: await response.text() });
    },
  };
})();
