import { expect, test } from "@playwright/test";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { hydrated, newUser, openRegistration } from "./support";

// Issue 29: a person adds an ntfy channel pointed at a receiver on this
// machine (speaking ntfy's JSON publish), sends a test, sees it arrive and
// the channel's last result on the page.

type Published = { path: string; body: Record<string, unknown> };

function ntfyReceiver(): Promise<{ server: Server; url: string; got: Published[] }> {
  const got: Published[] = [];
  const server = createServer((request: IncomingMessage, response) => {
    let text = "";
    request.on("data", (chunk) => (text += chunk));
    request.on("end", () => {
      got.push({ path: request.url ?? "", body: JSON.parse(text || "{}") });
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ id: "1", event: "message" }));
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, url: `http://127.0.0.1:${port}`, got });
    }),
  );
}

test("a person adds an ntfy channel, sends a test and sees it arrive", async ({ browser }) => {
  const receiver = await ntfyReceiver();
  await openRegistration(browser);
  const { context, page } = await newUser(browser, "notify-e2e@example.com");
  await page.goto("/profile/notifications");
  await hydrated(page);
  await expect(page.getByRole("heading", { name: "Notifications", level: 1 })).toBeVisible();
  await expect(page.getByText("No channels yet")).toBeVisible();

  await page.getByLabel("Kind").selectOption("ntfy");
  await page.getByLabel("Name", { exact: true }).fill("My phone");
  await page.getByLabel("ntfy server").fill(receiver.url);
  await page.getByLabel("Topic").fill("tally-bills");
  // Every event is ticked to begin with; this phone skips the bank's.
  const adding = page.locator("form").filter({ has: page.getByRole("button", { name: "Add channel" }) });
  await expect(adding.getByLabel("A bill is due soon")).toBeChecked();
  await adding.getByLabel("A bank connection works again").uncheck();
  await page.getByRole("button", { name: "Add channel" }).click();
  const channel = page.locator("li.channel").filter({ hasText: "My phone" });
  await expect(channel).toBeVisible();
  await expect(channel.getByTestId("channel-last")).toHaveText("Nothing sent yet");
  await expect(channel.getByTestId("channel-events")).not.toContainText("works again");
  await expect(channel.getByTestId("channel-events")).toContainText("A bill is due soon");

  // Changed later: only overdue bills.
  await channel.getByText("Change", { exact: true }).click();
  for (const label of [
    "A bill is due soon",
    "An autopay debit failed",
    "A bank connection stopped syncing",
    "A bill was charged a different amount",
  ]) {
    await channel.getByLabel(label).uncheck();
  }
  await channel.getByRole("button", { name: "Save changes" }).click();
  await expect(page.locator("li.channel").filter({ hasText: "My phone" }).getByTestId("channel-events")).toHaveText(
    "A bill is overdue",
  );

  await page.locator("li.channel").filter({ hasText: "My phone" }).getByRole("button", { name: "Send test" }).click();
  await expect(page.getByTestId("test-result")).toHaveText("Test sent.");
  await expect.poll(() => receiver.got.length).toBe(1);
  expect(receiver.got[0].path).toBe("/");
  expect(receiver.got[0].body.topic).toBe("tally-bills");
  expect(receiver.got[0].body.title).toBe("Tally: test message");
  await expect(page.locator("li.channel").filter({ hasText: "My phone" }).getByTestId("channel-last")).toContainText(
    "Last sent",
  );
  await expect(page.getByRole("cell", { name: "Test message" })).toBeVisible();

  // A channel to a private address the administrator did not allow is
  // refused when saved, naming the field.
  await page.getByLabel("Kind").selectOption("gotify");
  await page.getByLabel("Name", { exact: true }).fill("Home");
  await page.getByLabel("Gotify server").fill("http://192.168.1.10");
  await page.getByLabel("Application token").fill("secret-app-token");
  await page.getByRole("button", { name: "Add channel" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Tally does not send to that address" })).toBeVisible();
  await expect(page.locator("body")).not.toContainText("secret-app-token");

  await context.close();
  receiver.server.close();
});
