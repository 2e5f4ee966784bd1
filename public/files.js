// Reading a chosen file's text for Tally's WASM bundle (the Data page's
// CSV import): window.tallyFiles.readText(input) resolves to the first
// chosen file's text, or null when none is chosen.
"use strict";
(() => {
  window.tallyFiles = {
    readText(input) {
      const file = input && input.files && input.files[0];
      return file ? file.text() : Promise.resolve(null);
    },
  };
})();
