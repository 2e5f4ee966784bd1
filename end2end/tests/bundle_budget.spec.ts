import { test, expect, Page, BrowserContext } from "@playwright/test";
import { addMonthlyBill, hydrated, newUser, openRegistration } from "./support";
import { request as httpRequest } from "node:http";

// What a first visit downloads, in brotli bytes, against the budgets of
// the README: the marketing home page at most 200 KB; a signed-in page
// opened first (the Tracker, a bill's page) in at most 25 requests and
// 350 KB (issue 30). Deterministic for a given build: the browser decides
// what is loaded, and each of those answers is fetched again with
// `Accept-Encoding: br` and counted as sent, not as decoded (headers not
// counted; 1 KB = 1,000 bytes).
const KB = 1000;
// 265 KB while the splitter kept every page's data in the main module;
// 215 KB since each area's data goes with its area (`frontend`'s
// `split_slack`, docs/decisions.md, "Each area's data in its own chunk"):
// the home page is 205.5 KB. Falling back to one data section puts it
// back at about 250 KB, so this budget also guards that.
// 200 KB (issue 33) since the header asks who is signed in without the
// server functions' client or a JSON decoder (`api::signed_in_as`), which
// left the main module: the home page is 174.0 KB. Either coming back into
// the main module puts it at about 207 KB, so this budget guards that.
const HOME_BUDGET = 200 * KB;
// Issue 30's target for a signed-in page: 350 KB in at most 25 requests.
// Grouping the split by area (`pages::split_route!`) took the Tracker from
// 137 requests and 478 KB to 21 and 379 KB; each area's files as one pack
// (`tally pack-wasm`) and the Tracker's data in one read to 7 requests and
// 343.8 KB (a bill's page 345.0 KB): docs/decisions.md, "Each area's WASM
// in one download". The bill form in a chunk of its own (issue 33) took a
// bill's page to 318.4 KB, and its payment form working without
// JavaScript to 327.4 KB; the Tracker is 345.5 KB. The header's own
// question (above) took the Tracker to 340.2 KB, a bill's page to 322.7 KB.
const SIGNED_IN_BUDGET = 350 * KB;
const SIGNED_IN_REQUESTS = 25;

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

/** A signed-in page's first load against both of its budgets (the count
 * and the bytes are both printed before either is checked). */
async function expectWithinSignedInBudget(context: BrowserContext, urls: string[]) {
  console.log(`${urls.length} requests`);
  const bytes = await weigh(context, urls);
  // The area's WASM came as its pack (`tally pack-wasm`), not file by file.
  expect(urls.filter((url) => /\/pkg\/area_\w+\.\w+\.bin$/.test(url))).toHaveLength(1);
  expect(urls.filter((url) => /\/pkg\/(chunk|split)_/.test(url))).toEqual([]);
  expect(urls.length).toBeLessThanOrEqual(SIGNED_IN_REQUESTS);
  expect(bytes).toBeLessThanOrEqual(SIGNED_IN_BUDGET);
}

test("the home page's first visit stays within 200 KB", async ({ browser, baseURL }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const urls = await firstVisit(page, new URL(baseURL!).origin, "/");
  expect(urls.some((url) => url.endsWith(".wasm"))).toBe(true);
  expect(await weigh(context, urls)).toBeLessThanOrEqual(HOME_BUDGET);
  await context.close();
});

test("the Tracker's first load stays within 25 requests and 350 KB", async ({ browser, baseURL }) => {
  await openRegistration(browser);
  const { context, page } = await newUser(browser, "budget@example.com");
  const urls = await firstVisit(page, new URL(baseURL!).origin, "/tracker");
  await expect(page.getByRole("heading", { name: "Tracker" })).toBeVisible();
  await expectWithinSignedInBudget(context, urls);
  await context.close();
});

test("a bill's page, opened first, stays within 25 requests and 350 KB", async ({ browser, baseURL }) => {
  await openRegistration(browser);
  const { context, page } = await newUser(browser, "budget-bill@example.com");
  const id = await addMonthlyBill(context, { name: "Rent", amountMinor: 150000, anchorDate: "2026-12-01" });
  const urls = await firstVisit(page, new URL(baseURL!).origin, `/bills/${id}`);
  await expect(page.getByRole("heading", { name: "Rent" })).toBeVisible();
  await expectWithinSignedInBudget(context, urls);
  await context.close();
});
