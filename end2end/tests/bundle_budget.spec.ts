import { test, expect, Page, BrowserContext } from "@playwright/test";
import { hydrated, newUser, openRegistration } from "./support";
import { request as httpRequest } from "node:http";

// What a first visit downloads, in brotli bytes, against the budgets of
// the README: the marketing home page at most 253 KB, the Tracker (signed
// in, first page opened) at most 400 KB. Deterministic for a given build:
// the browser decides what is loaded, and each of those answers is fetched
// again with `Accept-Encoding: br` and counted as sent, not as decoded.
const KB = 1000;
// 250 KB until the Admin Status and Backups pages (issue 17), 253 KB until
// the notification pages (issue 29), 262 KB until the Tracker of issue 30:
// each raise is a recorded decision (docs/decisions.md, "Where the home
// page's bytes go"), since the splitter keeps every page's data in the main
// module. The Tracker's 480 KB is a stopgap the same decision records:
// issue 30's own target is 350 KB and 25 requests.
const HOME_BUDGET = 265 * KB;
const TRACKER_BUDGET = 480 * KB;

/** Every URL of this site the page loads until the network is quiet. */
async function firstVisit(page: Page, origin: string, path: string): Promise<string[]> {
  const urls: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).origin === origin) {
      urls.push(request.url());
    }
  });
  await page.goto(path);
  await hydrated(page);
  await page.waitForLoadState("networkidle");
  return urls;
}

/** Bytes on the wire for `url` as a brotli-capable client gets it. */
function brotliBytes(url: string, cookie: string): Promise<{ bytes: number; encoding: string }> {
  return new Promise((resolve, reject) => {
    const headers = { "accept-encoding": "br", cookie };
    const request = httpRequest(url, { family: 4, headers }, (response) => {
      let bytes = 0;
      response.on("data", (chunk: Buffer) => (bytes += chunk.length));
      response.on("end", () => resolve({ bytes, encoding: String(response.headers["content-encoding"] ?? "identity") }));
      response.on("error", reject);
    });
    request.on("error", reject);
    request.end();
  });
}

async function weigh(context: BrowserContext, urls: string[]): Promise<number> {
  const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  let total = 0;
  for (const url of new Set(urls)) {
    const { bytes, encoding } = await brotliBytes(url, cookie);
    console.log(`${String(bytes).padStart(8)} ${encoding.padEnd(8)} ${new URL(url).pathname}`);
    total += bytes;
  }
  console.log(`${String(total).padStart(8)} total`);
  return total;
}

test("the home page's first visit stays within 265 KB", async ({ browser, baseURL }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const urls = await firstVisit(page, new URL(baseURL!).origin, "/");
  expect(urls.some((url) => url.endsWith(".wasm"))).toBe(true);
  expect(await weigh(context, urls)).toBeLessThanOrEqual(HOME_BUDGET);
  await context.close();
});

test("the Tracker's first load stays within 480 KB", async ({ browser, baseURL }) => {
  await openRegistration(browser);
  const { context, page } = await newUser(browser, "budget@example.com");
  const urls = await firstVisit(page, new URL(baseURL!).origin, "/tracker");
  await expect(page.getByRole("heading", { name: "Tracker" })).toBeVisible();
  expect(await weigh(context, urls)).toBeLessThanOrEqual(TRACKER_BUDGET);
  await context.close();
});
