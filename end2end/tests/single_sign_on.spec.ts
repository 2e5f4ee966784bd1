import { expect, test } from "@playwright/test";
import { ADMIN, hydrated, PASSWORD } from "./support";

// Issue 31: signing in through the household's identity provider, a real
// one (oidc-provider, end2end/oidc/provider.mjs) on loopback, clicked
// through in Chromium. The "sso" server of playwright.config.ts creates
// accounts on first sign-in (OIDC_AUTO_PROVISION).
const site = () => `http://localhost:${process.env.E2E_SSO_PORT}`;

test("a person signs in through the identity provider and lands where they were going", async ({ page }) => {
  await page.goto(`${site()}/login?next=%2Fbills`);
  await hydrated(page);
  const button = page.getByRole("link", { name: "Sign in with the family account" });
  await expect(button).toBeVisible();
  // The password form stays, below the provider's button.
  await expect(page.getByLabel("Email")).toBeVisible();
  await button.click();

  // The provider's own pages: sign in, then allow Tally.
  await page.getByPlaceholder("Enter any login").fill("pat");
  await page.getByPlaceholder("and password").fill("anything");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await page.getByRole("button", { name: "Continue" }).click();

  // Back at Tally, signed in, at `next`.
  await expect(page).toHaveURL(`${site()}/bills`);
  await hydrated(page);
  await expect(page.getByRole("heading", { name: "Bills", level: 1 })).toBeVisible();
  const me = await (await page.request.get(`${site()}/api/auth/me`)).json();
  expect(me.user.email).toBe("pat@example.com");

  // Signing out in Profile signs out at the provider too, and comes back
  // to the sign-in page; the next sign-in asks the provider again.
  await page.goto(`${site()}/profile`);
  await hydrated(page);
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await page.getByRole("button", { name: "Yes, sign me out" }).click();
  await expect(page).toHaveURL(`${site()}/login`);
  expect((await page.request.get(`${site()}/api/auth/me`)).status()).toBe(401);
  await hydrated(page);
  await page.getByRole("link", { name: "Sign in with the family account" }).click();
  await expect(page.getByPlaceholder("Enter any login")).toBeVisible();
});

test("a failed provider sign-in says what happened in words", async ({ page }) => {
  await page.goto(`${site()}/login?error=sso_no_account`);
  await hydrated(page);
  await expect(page.getByRole("alert")).toHaveText(
    "There is no Tally account for you yet. Ask your administrator to add one.",
  );
  // A made-up answer from "the provider" signs nobody in.
  await page.goto(`${site()}/api/auth/oidc/callback?code=forged&state=forged`);
  await expect(page).toHaveURL(`${site()}/login?error=sso_state`);
  await expect(page.getByRole("alert")).toContainText("Start again here");
  const me = await page.request.get(`${site()}/api/auth/me`);
  expect(me.status()).toBe(401);
});

test("an administrator reads the provider's settings, tests discovery and links their own provider account", async ({ page }) => {
  // Signed in with the password, through the sign-in page.
  await page.goto(`${site()}/login`);
  await hydrated(page);
  await page.getByLabel("Email").fill(ADMIN);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(`${site()}/tracker`);

  // Admin → Authentication: what the environment fixed is read-only.
  await page.goto(`${site()}/admin/authentication`);
  await hydrated(page);
  await expect(page.getByTestId("sso-status")).toHaveText("Single sign-on is on.");
  await expect(page.getByLabel("Issuer URL", { exact: true })).toBeDisabled();
  await expect(page.getByText("Set by OIDC_ISSUER_URL in the server's environment.")).toBeVisible();
  await expect(page.getByTestId("redirect-uri")).toHaveText(`${site()}/api/auth/oidc/callback`);
  await page.getByRole("button", { name: "Test discovery" }).click();
  await expect(page.getByTestId("discovery-result")).toContainText("/session/end");

  // Local sign-in cannot go off before an administrator signed in through
  // the provider: the page says why. Saving asks for the password again.
  await page.getByLabel("Email and password sign in").uncheck();
  await page.getByLabel("Your password, to save these settings").fill(PASSWORD);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("save-error")).toContainText(
    "only after an administrator has signed in through the identity provider",
  );

  // Profile → link the provider account: through the provider and back.
  await page.goto(`${site()}/profile`);
  await hydrated(page);
  await expect(page.getByText("does not ask for Tally's own authenticator code")).toBeVisible();
  await page.getByRole("button", { name: "Link your account: Sign in with the family account" }).click();
  await page.getByPlaceholder("Enter any login").fill("admin-at-home");
  await page.getByPlaceholder("and password").fill("anything");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(`${site()}/profile`);
  await hydrated(page);
  const linked = page.getByTestId("linked-identity");
  await expect(linked).toContainText("admin-at-home@example.com");

  // Unlinked again (the account has a password).
  await linked.getByRole("button", { name: "Unlink" }).click();
  await expect(page.getByTestId("linked-identity")).toHaveCount(0);
});
