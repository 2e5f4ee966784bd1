// A local stand-in for a Turnstile-style bot-check provider, for the
// end-to-end suite (the network is closed, and tests must not depend on a
// third party). It serves:
//   GET  /api.js      the widget script: window.turnstile with render,
//                     getResponse and reset; the widget is an "I am human"
//                     checkbox that yields a fresh single-use token
//   POST /siteverify  form (secret, response, remoteip) → {"success": bool};
//                     a token passes once, and only with the right secret
//   GET  /calls       every siteverify call so far, as JSON
//   GET  /health      200 once listening
import { createServer } from "node:http";

const port = Number(process.env.FAKE_CAPTCHA_PORT);
const secret = process.env.FAKE_CAPTCHA_SECRET ?? "e2e-captcha-secret";
const issued = new Set();
const calls = [];

const widget = `"use strict";
(() => {
  const widgets = new Map();
  let next = 0;
  window.turnstile = {
    render(element, options) {
      const id = "w" + ++next;
      const label = document.createElement("label");
      const box = document.createElement("input");
      box.type = "checkbox";
      box.addEventListener("change", async () => {
        widgets.set(id, null);
        if (!box.checked) return;
        const answer = await fetch(TOKEN_URL + "?sitekey=" + encodeURIComponent(options.sitekey), { method: "POST" });
        widgets.set(id, await answer.text());
      });
      label.append(box, " I am human");
      element.replaceChildren(label);
      widgets.set(id, null);
      widgets.set(id + ":box", box);
      return id;
    },
    getResponse(id) {
      return widgets.get(id) || undefined;
    },
    reset(id) {
      widgets.set(id, null);
      const box = widgets.get(id + ":box");
      if (box) box.checked = false;
    },
  };
})();
`;

function readBody(request) {
  return new Promise((resolve) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => resolve(body));
  });
}

createServer(async (request, response) => {
  const url = new URL(request.url, `http://127.0.0.1:${port}`);
  const cors = { "access-control-allow-origin": "*" };
  if (request.method === "GET" && url.pathname === "/api.js") {
    const script = widget.replace("TOKEN_URL", JSON.stringify(`http://127.0.0.1:${port}/token`));
    response.writeHead(200, { "content-type": "text/javascript", ...cors });
    return response.end(script);
  }
  if (request.method === "POST" && url.pathname === "/token") {
    const token = `solved-${url.searchParams.get("sitekey")}-${issued.size + 1}-${Math.random().toString(36).slice(2)}`;
    issued.add(token);
    response.writeHead(200, { "content-type": "text/plain", ...cors });
    return response.end(token);
  }
  if (request.method === "POST" && url.pathname === "/siteverify") {
    const form = Object.fromEntries(new URLSearchParams(await readBody(request)));
    calls.push(form);
    const success = form.secret === secret && issued.delete(form.response);
    response.writeHead(200, { "content-type": "application/json" });
    return response.end(JSON.stringify({ success }));
  }
  if (request.method === "GET" && url.pathname === "/calls") {
    response.writeHead(200, { "content-type": "application/json" });
    return response.end(JSON.stringify(calls));
  }
  if (request.method === "GET" && url.pathname === "/health") {
    response.writeHead(200);
    return response.end("ok");
  }
  response.writeHead(404);
  response.end();
}).listen(port, "127.0.0.1");
