// The bot-check widget for Tally's public forms. The provider's script
// (CAPTCHA_SCRIPT_URL: Cloudflare Turnstile by default; hCaptcha and
// reCAPTCHA v2 share the same explicit-render API) is loaded once, on the
// first form that needs it, so client-side navigation between pages works.
// The Rust side calls window.tallyCaptcha.render(element, siteKey, scriptUrl)
// and gets the widget id; token(id) reads the visitor's answer at submit
// time, and reset(id) asks for a new one after a refused submission
// (a token can be verified only once).
"use strict";
(() => {
  const loading = new Map();

  function load(scriptUrl) {
    if (!loading.has(scriptUrl)) {
      loading.set(
        scriptUrl,
        new Promise((resolve, reject) => {
          const script = document.createElement("script");
          script.src = scriptUrl;
          script.async = true;
          script.onload = () => resolve();
          script.onerror = () => {
            loading.delete(scriptUrl);
            reject(new Error("the bot check could not be loaded"));
          };
          document.head.appendChild(script);
        }),
      );
    }
    return loading.get(scriptUrl);
  }

  function provider() {
    const api = window.turnstile || window.hcaptcha || window.grecaptcha;
    if (!api || typeof api.render !== "function") {
      throw new Error("the bot check script did not start");
    }
    return api;
  }

  async function render(element, siteKey, scriptUrl) {
    await load(scriptUrl);
    return String(provider().render(element, { sitekey: siteKey }));
  }

  function token(id) {
    try {
      const answer = provider().getResponse(id);
      return answer ? String(answer) : null;
    } catch (_) {
      return null;
    }
  }

  function reset(id) {
    try {
      provider().reset(id);
    } catch (_) {
      // Nothing to reset: the widget is gone with its page.
    }
  }

  window.tallyCaptcha = { render, token, reset };
})();
