import { expect, test, type Page } from "@playwright/test";
import { createHmac } from "node:crypto";
import { ADMIN, PASSWORD, USER_PASSWORD, newUser, openRegistration } from "./support";

// The tests share the bootstrap admin, one after the other.
test.describe.configure({ mode: "serial" });

/** RFC 6238 TOTP (SHA-1, 6 digits, 30 s), as an authenticator app computes it. */
function totp(secretBase32: string, atSeconds = Date.now() / 1000): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const char of secretBase32.replace(/=+$/, "").toUpperCase()) {
    value = (value << 5) | alphabet.indexOf(char);
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(atSeconds / 30)));
  const hmac = createHmac("sha1", Buffer.from(bytes)).update(counter).digest();
  const offset = hmac[hmac.length - 1] & 15;
  return ((hmac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).toString().padStart(6, "0");
}

async function hydrated(page: Page) {
  await expect(page.locator('main[data-hydrated="true"]')).toBeAttached();
}

test("the bootstrap admin signs in, makes an API token and signs out", async ({ page, request }, testInfo) => {
  await page.goto("/login");
  await hydrated(page);
  // Opened, the page is ready to type into.
  await expect(page.getByLabel("Email")).toBeFocused();

  // A mistake first: the error is announced and the form stays.
  await page.getByLabel("Email").fill(ADMIN);
  await page.getByLabel("Password").fill("not the password at all");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").first()).toContainText("email or password is wrong");
  await expect(page).toHaveURL(/\/login$/);

  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/tracker$/);
  await page.goto("/profile");
  await hydrated(page);
  await expect(page.getByTestId("profile-email")).toHaveValue(ADMIN);

  // Name and email are one form; with JavaScript the page stays and says so.
  await page.getByLabel("Name", { exact: true }).fill("Ada Admin");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
  await expect(page).toHaveURL(/\/profile$/);

  // The session cookie is HttpOnly: scripts cannot read it.
  const visible = await page.evaluate(() => document.cookie);
  expect(visible).not.toContain("tally_session");

  await page.getByLabel("Token name").fill("e2e script");
  await expect(page.getByLabel("Expires after")).toHaveValue("90");
  await page.getByLabel("Expires after").selectOption("30");
  await page.getByRole("button", { name: "Create token" }).click();
  const token = (await page.getByTestId("new-token").textContent()) ?? "";
  expect(token).toMatch(/^tally_pat_/);
  await expect(page.getByRole("listitem").filter({ hasText: "e2e script" })).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: "e2e script" }).getByTestId("token-expiry")).toContainText(
    "expires 20",
  );
  await page.screenshot({ path: testInfo.outputPath("profile.png"), fullPage: true });

  // The token works for a program, without cookies.
  const me = await request.get("/api/auth/me", { headers: { authorization: `Bearer ${token}` } });
  expect(me.status()).toBe(200);
  expect((await me.json()).user.email).toBe(ADMIN);

  // Revoked from the page (its form, here with JavaScript), it stops working.
  await page.getByRole("button", { name: "Revoke e2e script" }).click();
  await expect(page.getByRole("listitem").filter({ hasText: "e2e script" })).toHaveCount(0);
  await expect(page).toHaveURL(/\/profile$/);
  const revoked = await request.get("/api/auth/me", { headers: { authorization: `Bearer ${token}` } });
  expect(revoked.status()).toBe(401);

  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto("/profile");
  await expect(page.getByText("You are signed out.")).toBeVisible();
});

const CAROL = "carol@example.com";
const CAROL_PASSWORD = "violet umbrella harbor 42";

async function signIn(page: Page, email: string, password: string) {
  await page.goto("/login");
  await hydrated(page);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

test("an admin invites someone, who joins through the link; disabling signs them out", async ({ page, browser }, testInfo) => {
  await signIn(page, ADMIN, PASSWORD);
  await expect(page).toHaveURL(/\/tracker$/);
  await page.goto("/profile");
  await hydrated(page);
  await page.getByRole("link", { name: /Administration/ }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByTestId("users")).toContainText(ADMIN);
  await page.getByLabel(/Their email/).fill(CAROL);
  // Account-level changes ask for the password each time.
  await page.getByRole("button", { name: "Create invitation link" }).click();
  const inviting = page.getByRole("region", { name: "Invite someone" });
  await expect(inviting.getByRole("alert")).toContainText("Current password: enter your password");
  await page.getByLabel("Your password, to invite").fill(PASSWORD);
  await page.getByRole("button", { name: "Create invitation link" }).click();
  const link = (await page.getByTestId("invitation-link").textContent()) ?? "";
  expect(link).toMatch(/\/register\?invitation=[A-Za-z0-9_-]{43}$/);
  await expect(page.getByRole("listitem").filter({ hasText: CAROL })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("admin.png"), fullPage: true });

  // Carol, in her own browser.
  const carolContext = await browser.newContext();
  const carol = await carolContext.newPage();
  await carol.goto(link);
  await hydrated(carol);
  await expect(carol.getByText("You are invited to this Tally.")).toBeVisible();
  await expect(carol.getByLabel("Email")).toHaveValue(CAROL);
  await carol.getByLabel("Password").fill("short");
  await expect(carol.getByText("use at least 12 characters")).toBeVisible();
  await carol.getByLabel("Name (optional)").fill("Carol");
  await carol.getByLabel("Password").fill(CAROL_PASSWORD);
  await carol.getByRole("button", { name: "Create account" }).click();
  await expect(carol).toHaveURL(/\/tracker$/);
  await carol.goto("/profile");
  await hydrated(carol);
  await expect(carol.getByTestId("profile-email")).toHaveValue(CAROL);
  await expect(carol.getByRole("link", { name: /Administration/ })).toHaveCount(0);

  // The link is spent.
  await carol.goto(link);
  await expect(carol.getByText("This invitation link is not valid")).toBeVisible();

  // Disabled: Carol's session ends at once.
  await page.reload();
  await hydrated(page);
  await page.getByLabel("Your password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: `Disable ${CAROL}` }).click();
  await expect(page.getByRole("status").first()).toContainText("Account disabled");
  await carol.goto("/profile");
  await expect(carol.getByText("You are signed out.")).toBeVisible();
  await page.getByLabel("Your password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: `Enable ${CAROL}` }).click();
  await expect(page.getByRole("button", { name: `Disable ${CAROL}` })).toBeVisible();
  await expect(page.getByLabel("Your password", { exact: true })).toHaveValue("");

  // Registration: saved with the password, the setting in force said.
  const box = page.getByLabel("Let anyone who can reach this Tally create an account");
  const registrationPassword = page.getByLabel("Your password, to change registration");
  await box.check();
  await registrationPassword.fill(PASSWORD);
  await page.getByRole("button", { name: "Save registration" }).click();
  await expect(page.getByTestId("registration-state")).toContainText("Open");
  await expect(registrationPassword).toHaveValue("");
  await expect(box).toBeChecked();
  await box.uncheck();
  await registrationPassword.fill(PASSWORD);
  await page.getByRole("button", { name: "Save registration" }).click();
  await expect(page.getByTestId("registration-state")).toContainText("By invitation only");
  await expect(box).not.toBeChecked();
  await carolContext.close();
});

test("a security key as the second factor, with privacy and sign-in history in Profile", async ({ page }, testInfo) => {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable", { enableUI: false });
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "usb",
      hasResidentKey: false,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });

  await signIn(page, CAROL, CAROL_PASSWORD);
  await expect(page).toHaveURL(/\/tracker$/);
  await page.goto("/profile");
  await hydrated(page);
  await page.getByLabel("Name of the new key").fill("Blue key");
  await page.getByRole("button", { name: "Add security key" }).click();
  await expect(page.getByTestId("security-keys").getByRole("listitem")).toHaveCount(1);
  await expect(page.getByTestId("security-keys")).toContainText("Blue key");
  const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
  expect(credentials).toHaveLength(1);

  // Privacy: location lookups are off until Carol turns them on.
  const toggle = page.getByLabel("Show where I signed in from");
  await expect(toggle).not.toBeChecked();
  await toggle.check();
  await page.getByRole("button", { name: "Save privacy" }).click();
  await expect(page.getByText("Saved: your next sign-ins")).toBeVisible();

  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/login$/);
  // The address changes before the sign-in page replaces Profile (its
  // code may still be loading): wait for the page itself.
  await expect(page.getByRole("heading", { name: "Sign in to Tally" })).toBeVisible();
  await page.getByLabel("Email").fill(CAROL);
  await page.getByLabel("Password").fill(CAROL_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Touch your security key")).toBeVisible();
  await expect(page.getByLabel("Code from your authenticator app")).toHaveCount(0);
  await page.getByRole("button", { name: "Use security key" }).click();
  await expect(page).toHaveURL(/\/tracker$/);
  await page.goto("/profile");
  await hydrated(page);
  await expect(page.getByTestId("profile-email")).toHaveValue(CAROL);
  await expect(page.getByLabel("Show where I signed in from")).toBeChecked();
  const history = page.getByTestId("sign-in-history");
  // The header, Carol's two password sign-ins (joining is not a sign-in)
  // and the key that answered the second one.
  await expect(history.getByRole("row")).toHaveCount(4);
  await expect(history).toContainText("Correct password");
  const newest = history.getByRole("row").nth(1);
  await expect(newest).toContainText("Security key");
  await expect(newest).toContainText("Key accepted");
  await page.screenshot({ path: testInfo.outputPath("profile-keys.png"), fullPage: true });

  // The key's counter moved: it signed once.
  const after = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
  expect(after.credentials[0].signCount).toBeGreaterThan(credentials[0].signCount);
});

test("TOTP enrolment, then signing in with a computed code", async ({ browser }, testInfo) => {
  // A person of their own: were this test to stop halfway, the shared
  // administrator would not be left with two-factor sign-in on.
  await openRegistration(browser);
  const email = `totp-${Date.now()}@example.com`;
  const { context, page } = await newUser(browser, email);
  await page.goto("/profile");
  await hydrated(page);

  await page.getByRole("button", { name: "Set up two-factor sign-in" }).click();
  await expect(page.locator(".qr svg")).toBeVisible();
  const secret = (await page.getByTestId("totp-secret").textContent()) ?? "";
  expect(secret).toMatch(/^[A-Z2-7]+$/);
  await page.screenshot({ path: testInfo.outputPath("totp-enrolment.png"), fullPage: true });
  const firstCode = totp(secret);
  await page.getByLabel("Code from the app").fill(firstCode);
  await page.getByRole("button", { name: "Turn on" }).click();
  await expect(page.getByTestId("recovery-codes").getByRole("listitem")).toHaveCount(10);

  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/login$/);
  await hydrated(page);
  await expect(page.getByLabel("Email")).toBeFocused();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(USER_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  // The second step takes the focus and says what it is.
  await expect(page.getByLabel("Code from your authenticator app")).toBeFocused();
  await expect(page.getByTestId("sign-in-step")).toHaveText(/Second step: enter the code/);

  // The code that turned TOTP on is spent; the next step's code is accepted.
  await page.getByLabel("Code from your authenticator app").fill(firstCode);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByRole("alert").first()).toContainText("not right");
  await page.getByLabel("Code from your authenticator app").fill(totp(secret, Date.now() / 1000 + 30));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/tracker$/);
  await page.goto("/profile");
  await hydrated(page);
  await expect(page.getByTestId("profile-email")).toHaveValue(email);
  await expect(page.getByTestId("totp-on")).toContainText("10 recovery codes left");

  // Turning it off needs the password.
  await page.getByLabel("Your password, to turn it off").fill(USER_PASSWORD);
  await page.getByRole("button", { name: "Turn off" }).click();
  await expect(page.getByRole("button", { name: "Set up two-factor sign-in" })).toBeVisible();

  // The password form, with JavaScript: the refusal and the change are
  // said in place, and the page stays where it is.
  await page.getByLabel("Current password", { exact: true }).fill("not my password at all");
  await page.getByLabel("New password").fill("another secret passphrase 3");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "this is not your current password" })).toBeVisible();
  await page.getByLabel("Current password", { exact: true }).fill(USER_PASSWORD);
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Password changed" })).toBeVisible();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByLabel("New password")).toHaveValue("");
  await context.close();
});
