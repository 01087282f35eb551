import { paths, routeTo } from '../client/paths';
import { E2E_OWNER } from '../playwright.config';
import { authMessages, toasts, ui } from '../shared/messages';
import { axeFindings, screenshot, settle } from './support/a11y';
import { signIn } from './support/accounts';
import { type APIRequestContext, expect, type Page, test } from './support/test';
import { buildTourData, freshVerificationLink, resetLink, type TourData } from './support/tour-data';

/**
 * A tour of every page: signed out, as an agent and as the owner, at a
 * desktop width and a phone's. On each page axe-core must find nothing serious or critical and
 * no broken landmark or heading structure (e2e/support/a11y.ts), and a full-page screenshot goes
 * to test-results/screenshots/<role>-<page>-<width>.png for people to look at. The main dialogs
 * and a toast are checked open too: their close buttons were among the unnamed ones.
 *
 * Every finding of a tour is collected before the test fails, so one run lists them all.
 */

type Role = 'signed-out' | 'agent' | 'owner';
type Stop = { name: string; path: string; ready: (page: Page) => Promise<void> };

const WIDTHS = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;

/** Built once per worker: a test that fails restarts the worker, and the next one builds anew. */
let tourData: Promise<TourData> | undefined;
function data(request: APIRequestContext): Promise<TourData> {
  tourData ??= buildTourData(request);
  return tourData;
}

const heading = (name: string) => async (page: Page) => {
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
};

const notFound: Stop = { name: 'not-found', path: '/no-such-page', ready: heading(ui.notFound) };

async function signedOutStops(request: APIRequestContext, tour: TourData): Promise<Stop[]> {
  // Each verification link works once, so every tour registers someone new for its own.
  const visitor = await freshVerificationLink(request, 'Vera');
  return [
    { name: 'login', path: paths.login, ready: heading('Sign in') },
    { name: 'register', path: paths.register, ready: heading('Create an account') },
    { name: 'reset-password', path: paths.reset, ready: heading('Forgot password?') },
    {
      name: 'new-password',
      path: new URL(await resetLink(request, tour.agent.email)).pathname,
      ready: heading(authMessages.setNewPasswordHeading),
    },
    {
      name: 'verify-email',
      path: new URL(visitor.link).pathname,
      ready: async (page) => {
        await expect(page.getByText(authMessages.verified)).toBeVisible();
      },
    },
    {
      name: 'verify-email-invalid',
      path: '/auth/verify-email/not-a-real-token',
      ready: async (page) => {
        await expect(page.getByText(authMessages.linkInvalid)).toBeVisible();
      },
    },
    {
      name: 'verification',
      path: routeTo.verification('register', visitor.email),
      ready: heading('Verify your email'),
    },
    {
      name: 'sign',
      path: tour.signing.path,
      ready: async (page) => {
        await heading(tour.signing.subject)(page);
        // The document's page drawn, with the signer's two boxes over it.
        await expect(page.locator('canvas[data-drawn-page="1"]')).toBeVisible();
        await expect(page.locator('[data-testid^="field-box-"]')).toHaveCount(2);
      },
    },
    notFound,
  ];
}

function commonStops(tour: TourData, role: Role): Stop[] {
  return [
    {
      name: 'home',
      path: paths.home,
      ready: async (page) => {
        await heading('Transactions')(page);
        const street = role === 'agent' ? tour.address : tour.ownerAddress;
        await expect(page.getByText(street).first()).toBeVisible();
      },
    },
    {
      name: 'forms',
      path: paths.forms,
      ready: async (page) => {
        await heading('Forms')(page);
        await expect(page.getByText('Escrow Instructions').first()).toBeVisible();
      },
    },
    {
      name: 'tutorials',
      path: paths.tutorials,
      ready: async (page) => {
        await heading('Tutorials')(page);
        await expect(page.getByText('Closing day checklist').first()).toBeVisible();
      },
    },
    {
      name: 'settings',
      path: paths.settings,
      ready: async (page) => {
        await heading('Update Profile')(page);
        await expect(page.getByLabel('First name')).toHaveValue(
          role === 'agent' ? tour.agent.firstName : /\S/,
        );
      },
    },
    {
      name: 'banner',
      path: paths.banner,
      ready: async (page) => {
        await heading('Banner')(page);
        await expect(page.locator('canvas').first()).toBeVisible();
      },
    },
    {
      // With a text selected, its format bar and colour field (and the field's eyedropper) show.
      name: 'banner-text-selected',
      path: paths.banner,
      ready: async (page) => {
        await heading('Banner')(page);
        await page.getByRole('button', { name: 'Text', exact: true }).click();
        await expect(page.getByLabel('Text color')).toBeVisible();
      },
    },
    {
      name: 'calendar',
      path: paths.calendar,
      ready: async (page) => {
        await heading('Calendar')(page);
        await expect(
          page
            .getByRole('list', { name: 'Upcoming key dates' })
            .or(page.getByText(/Nothing due in the next/)),
        ).toBeVisible();
      },
    },
    {
      name: 'notifications',
      path: paths.notifications,
      ready: async (page) => {
        await heading('Notifications')(page);
        if (role === 'agent')
          await expect(page.getByRole('link', { name: /was rejected/ }).first()).toBeVisible();
      },
    },
    notFound,
  ];
}

/** The checklist with a badge of every status and comments carrying both decisions. */
const reviewedDocuments = async (page: Page) => {
  await heading('Transaction')(page);
  const statuses = page.getByTestId('form-status');
  await expect(statuses.filter({ hasText: 'Accepted' })).toHaveCount(1);
  await expect(statuses.filter({ hasText: 'Rejected' })).toHaveCount(1);
  await expect(page.getByText('Missing the signature on page 2.')).toBeVisible();
};

function agentStops(tour: TourData): Stop[] {
  const [home, ...rest] = commonStops(tour, 'agent');
  return [
    home as Stop,
    { name: 'transaction', path: routeTo.transaction(tour.transactionId), ready: reviewedDocuments },
    ...rest,
  ];
}

function ownerStops(tour: TourData): Stop[] {
  return [
    ...commonStops(tour, 'owner'),
    {
      name: 'dashboard',
      path: paths.dashboard,
      ready: async (page) => {
        await heading('Dashboard')(page);
        await expect(page.getByRole('heading', { level: 2, name: 'Files at risk' })).toBeVisible();
      },
    },
    {
      name: 'users',
      path: paths.users,
      ready: async (page) => {
        await heading('Users')(page);
        // Any account: journeys running beside the tour add theirs at the top of the list.
        await expect(page.getByText(/@example\.com$/).first()).toBeVisible();
      },
    },
    {
      name: 'offices',
      path: paths.offices,
      ready: async (page) => {
        await heading('Offices')(page);
        await expect(page.getByRole('button', { name: 'Add office' })).toBeVisible();
      },
    },
    {
      name: 'admin-transactions',
      path: paths.adminTransactions,
      ready: async (page) => {
        await heading('Admin Transactions')(page);
        // Any file's row: journeys running beside the tour add theirs at the top of the list.
        await expect(page.getByRole('button', { name: 'Delete' }).first()).toBeVisible();
      },
    },
    {
      name: 'admin-transaction',
      path: routeTo.adminTransaction(tour.transactionId),
      ready: reviewedDocuments,
    },
    {
      name: 'review-queue',
      path: paths.reviewQueue,
      ready: heading('Review Queue'),
    },
    {
      name: 'rejection-reasons',
      path: paths.rejectionReasons,
      ready: async (page) => {
        await heading('Rejection Reasons')(page);
        await expect(page.getByText('Missing signature').first()).toBeVisible();
      },
    },
    {
      name: 'api-keys',
      path: paths.apiKeys,
      ready: async (page) => {
        await heading('API Keys')(page);
        await expect(page.getByText(/No API keys yet|Books|E2E sync|Active|Revoked/).first()).toBeVisible();
      },
    },
    {
      name: 'audit',
      path: paths.audit,
      ready: async (page) => {
        await heading('Audit')(page);
        await expect(page.getByRole('button', { name: /^Details/ }).first()).toBeVisible();
      },
    },
    {
      name: 'commission-plans',
      path: paths.commissionPlans,
      ready: async (page) => {
        await heading('Commission Plans')(page);
        // The list as loaded: its first plan's split, or the empty list's words (a fresh database).
        await expect(
          page
            .getByText('No commission plans yet.')
            .or(page.getByRole('cell', { name: /%$/ }))
            .first(),
        ).toBeVisible();
      },
    },
    {
      name: 'templates',
      path: paths.templates,
      ready: async (page) => {
        await heading('Transactions Forms')(page);
        await expect(page.getByText('Listing').first()).toBeVisible();
      },
    },
  ];
}

/** Visits each stop: ready, then axe, then the screenshot. Returns every finding. */
async function tour(page: Page, role: Role, width: number, stops: Stop[]): Promise<string[]> {
  const findings: string[] = [];
  for (const stop of stops) {
    await page.goto(stop.path);
    await stop.ready(page);
    findings.push(...(await axeFindings(page, `${role} ${stop.name} at ${width} px`)));
    await screenshot(page, `${role}-${stop.name}-${width}`);
  }
  return findings;
}

for (const viewport of WIDTHS) {
  const { width } = viewport;

  test.describe(`${width} px wide`, () => {
    test.use({ viewport });

    test(`signed out: every page at ${width} px`, async ({ page, request }) => {
      test.setTimeout(480_000);
      const stops = await signedOutStops(request, await data(request));
      expect(await tour(page, 'signed-out', width, stops)).toEqual([]);
    });

    test(`agent: every page at ${width} px`, async ({ page, request }) => {
      test.setTimeout(480_000);
      const tourData = await data(request);
      await signIn(page, tourData.agent.email, tourData.agent.password);
      expect(await tour(page, 'agent', width, agentStops(tourData))).toEqual([]);
    });

    test(`owner: every page at ${width} px`, async ({ page, request }) => {
      test.setTimeout(480_000);
      const tourData = await data(request);
      await signIn(page, E2E_OWNER.email, E2E_OWNER.password);
      expect(await tour(page, 'owner', width, ownerStops(tourData))).toEqual([]);
    });

    test(`agent: the create dialog, a toast${width < 768 ? ' and the phone menu' : ''} at ${width} px`, async ({
      page,
      request,
    }) => {
      test.setTimeout(180_000);
      const tourData = await data(request);
      await signIn(page, tourData.agent.email, tourData.agent.password);
      const findings: string[] = [];

      await heading('Transactions')(page);
      await page.getByRole('button', { name: 'Add Transaction' }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      findings.push(...(await axeFindings(page, `create-transaction dialog at ${width} px`)));
      await screenshot(page, `agent-create-transaction-dialog-${width}`);
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toHaveCount(0);

      // A real toast: a comment posted on the transaction page. Hovering it holds it open.
      await page.goto(routeTo.transaction(tourData.transactionId));
      await reviewedDocuments(page);
      const card = page.getByTestId('form-Agency Disclosure');
      await card.getByRole('button', { name: 'Add a comment' }).click();
      await card.getByLabel('Comment').fill('The buyer asked for a copy.');
      await card.getByRole('button', { name: 'Post comment' }).click();
      const toast = page.getByRole('alert').filter({ hasText: toasts.commentAdded });
      await toast.hover();
      findings.push(...(await axeFindings(page, `toast at ${width} px`)));
      await screenshot(page, `agent-toast-${width}`);

      if (width < 768) {
        await page.getByRole('button', { name: 'Open navigation' }).click();
        await expect(page.getByRole('dialog')).toBeVisible();
        findings.push(...(await axeFindings(page, `phone menu at ${width} px`)));
        await screenshot(page, `agent-phone-menu-${width}`);
      }
      expect(findings).toEqual([]);
    });

    test(`owner: add-user, add-template and confirm dialogs at ${width} px`, async ({ page, request }) => {
      test.setTimeout(180_000);
      // The tour's files: the transactions list has rows to delete.
      await data(request);
      await signIn(page, E2E_OWNER.email, E2E_OWNER.password);
      const findings: string[] = [];
      const dialog = page.getByRole('dialog');

      await page.goto(paths.users);
      await page.getByRole('button', { name: 'Add user' }).click();
      await expect(dialog).toBeVisible();
      findings.push(...(await axeFindings(page, `add-user dialog at ${width} px`)));
      await screenshot(page, `owner-add-user-dialog-${width}`);
      await page.keyboard.press('Escape');
      await expect(dialog).toHaveCount(0);

      await page.goto(paths.templates);
      await page.getByRole('button', { name: 'Add Transactions Forms' }).click();
      await expect(dialog).toBeVisible();
      findings.push(...(await axeFindings(page, `add-template dialog at ${width} px`)));
      await screenshot(page, `owner-add-template-dialog-${width}`);
      await page.keyboard.press('Escape');
      await expect(dialog).toHaveCount(0);

      // The confirmation before a delete, left with Cancel: nothing is deleted.
      // Whichever file is first: other journeys running beside this one add theirs to the list.
      await page.goto(paths.adminTransactions);
      await page.getByRole('button', { name: 'Delete' }).first().click();
      await expect(dialog).toBeVisible();
      await settle(page);
      findings.push(...(await axeFindings(page, `confirm dialog at ${width} px`)));
      await screenshot(page, `owner-confirm-dialog-${width}`);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog).toHaveCount(0);

      expect(findings).toEqual([]);
    });
  });
}
