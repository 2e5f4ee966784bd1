import { expect, test } from "@playwright/test";
import { csrf, hydrated, newUser, openRegistration } from "./support";

// Subscription intelligence with the demo bank: recommendations with their
// evidence, tracking one (it moves to Tracked Subscriptions), declining
// another (it stays gone after a sync), and the Service Catalog.
test("the demo bank's charges are recommended, tracked, declined and stay declined after a sync", async ({ browser }) => {
  await openRegistration(browser);
  const { context, page } = await newUser(browser, "subscriber@example.com");
  const headers = { "x-csrf-token": await csrf(context) };
  const connected = await context.request.post("/api/bank/connections", { headers, data: { setupToken: "demo" } });
  expect(connected.status(), await connected.text()).toBe(201);
  const { operation, connection } = await connected.json();
  const waited = await context.request.post(`/v1/${operation.name}:wait`, { headers, data: { timeout: "20s" } });
  expect((await waited.json()).done).toBe(true);

  await page.goto("/subscriptions");
  await hydrated(page);
  await expect(page.locator('[data-testid="recommendations"][data-live="true"]')).toBeAttached();
  const netflix = page.locator('[data-testid="recommendation"][data-service="Netflix"]');
  await expect(netflix).toContainText("$15.49");
  await expect(netflix.getByRole("button", { name: "Track Subscription" })).toBeVisible();

  // Details: the evidence in words and the charges behind it.
  const details = netflix.getByTestId("recommendation-details");
  await expect(details).toBeHidden();
  await netflix.getByRole("button", { name: "Details of Netflix" }).click();
  await expect(details).toBeVisible();
  await expect(details).toContainText("name on bank statements");
  await expect(details.locator("tbody tr").first()).toContainText("NETFLIX.COM");

  // Track: it leaves the recommendations and is a tracked subscription.
  await netflix.getByRole("button", { name: "Track Subscription" }).click();
  await expect(page.getByTestId("recommendation-status")).toHaveText("Netflix is tracked.");
  await expect(netflix).toHaveCount(0);
  await expect(page.getByTestId("subscription").filter({ hasText: "Netflix" })).toBeVisible();

  // Decline Spotify through the More menu.
  const spotify = page.locator('[data-testid="recommendation"][data-service="Spotify"]');
  await spotify.getByText("More ▾").click();
  await spotify.getByRole("button", { name: "Decline" }).click();
  await expect(page.getByTestId("recommendation-status")).toContainText("Spotify will not be suggested again");
  await expect(spotify).toHaveCount(0);

  // A sync brings the same charges again: Spotify stays declined.
  const synced = await context.request.post(`/api/bank/connections/${connection.id}/sync`, { headers, data: {} });
  expect(synced.status(), await synced.text()).toBe(200);
  const again = await synced.json();
  await context.request.post(`/v1/${again.name}:wait`, { headers, data: { timeout: "20s" } });
  await page.reload();
  await hydrated(page);
  await expect(page.locator('[data-testid="recommendations"][data-live="true"]')).toBeAttached();
  await expect(page.locator('[data-testid="recommendation"]').first()).toBeVisible();
  await expect(spotify).toHaveCount(0);
  await expect(netflix).toHaveCount(0);

  // The Service Catalog: Netflix tracked at 15.49 is compared with the plan
  // nearest its price (Standard, 17.99), not the cheapest (7.99).
  await page.getByRole("link", { name: "Improve matching" }).click();
  await expect(page.getByRole("heading", { name: "Service Catalog", level: 1 })).toBeVisible();
  await expect(page.locator('[data-testid="service-catalog"][data-live="true"]')).toBeAttached();
  const tracked = page.getByTestId("tracked-services");
  // A row by its bill's link: every row's re-link list names every service.
  const trackedRow = (name: string) =>
    tracked.locator("tr").filter({ has: page.getByRole("link", { name, exact: true }) });
  await expect(trackedRow("Netflix").getByTestId("drift")).toHaveText("▼ 14 % under the Standard price");

  // Search, then track one from the catalog.
  await page.getByLabel("Search").fill("disney");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/q=disney/);
  await expect(page.locator('[data-testid="service-catalog"][data-live="true"]')).toBeAttached();
  const services = page.getByTestId("catalog-services");
  await expect(services.locator("tbody tr").first()).toContainText("Disney+");
  await services.getByRole("button", { name: "Track Disney+", exact: true }).click();
  await expect(page.getByTestId("catalog-status")).toContainText("Tracked");
  await expect(trackedRow("Disney+")).toBeVisible();
  await context.close();
});
