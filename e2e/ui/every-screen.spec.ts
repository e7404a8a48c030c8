// Every page of the site at a phone and a desktop size: nothing scrolls sideways, no table's row is taller than 120 px
// on a phone, and axe-core finds no serious or critical violation on our own pages. The API reference is Scalar's
// page: axe runs on what we render around it and on the colours of our theme for it; docs/dashboard.md lists what
// Scalar itself still has.
//
// Each page is loaded once, at the phone's width, and then widened to the desktop's: the layout at each width is the
// stylesheet's (media queries) and the charts' (they measure their box again when it changes), neither of which
// depends on the width the page was loaded at, and a page load (its render on the server, the browser's parsing and
// hydration) was half of this file's cost, the suite's most expensive. At the phone size axe runs on the first page of
// each kind (public, an app's, settings) rather than on all of them: what differs on a phone is the frame (the
// collapsed navigation and its Menu button), the same on every page of a kind, and the rules axe checks on a page's
// content (names, labels, roles, colours) do not depend on the width.
import { expect, test, type Page } from '@playwright/test';
import { axeOn, seriousViolations } from '../axe';
import {
  API,
  bearer,
  createKey,
  DEMO,
  DEMO_APP_ID,
  signIn,
  signInAs,
  trpcQuery,
  OTHER,
  OTHER_APP_ID,
} from '../helpers';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };

const PUBLIC_PAGES = [
  '/',
  '/sign-in',
  '/sign-up',
  '/docs',
  '/docs/webhooks',
  '/docs/changelog',
  '/docs/data',
  '/docs/mcp',
  '/docs/problems',
  '/docs/problems/validation-error',
  '/invitations/no-such-invitation',
];
const APP_VIEWS = [
  '',
  '/opportunities',
  '/competitors',
  '/ratings',
  '/category-rank',
  '/metadata',
  '/keyword-spy',
  '/reviews',
];
const APP_PAGES = ['/apps', ...APP_VIEWS.map((view) => `/apps/${DEMO_APP_ID}${view}`)];
const SETTINGS_PAGES = [
  '/exports',
  '/settings/api',
  '/settings/webhooks',
  '/settings/store-accounts',
  '/settings/security',
  '/settings/members',
  '/settings/billing',
];

/** How far the page scrolls sideways, and the widest elements past the screen's edge (for the failure message). */
async function horizontalOverflow(page: Page): Promise<{ by: number; widest: string[] }> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const widest = [...document.querySelectorAll('body *')]
      .map((element) => ({ element, right: element.getBoundingClientRect().right }))
      .filter(({ right }) => right > width + 1)
      .sort((a, b) => b.right - a.right)
      .slice(0, 3)
      .map(
        ({ element, right }) =>
          `${element.tagName.toLowerCase()}${element.className && typeof element.className === 'string' ? `.${element.className.split(' ').join('.')}` : ''} (${Math.round(right)} px)`,
      );
    return { by: document.documentElement.scrollWidth - width, widest };
  });
}

async function expectNoSidewaysScroll(page: Page, path: string, size: string) {
  const overflow = await horizontalOverflow(page);
  expect.soft(overflow.by, `${path} scrolls sideways at ${size}: ${overflow.widest.join(', ')}`).toBeLessThanOrEqual(0);
}

/** The tallest row of the page's tables, and its table's name (for the failure message). */
async function tallestRow(page: Page): Promise<{ height: number; table: string }> {
  return page.evaluate(() =>
    [...document.querySelectorAll('tbody tr')]
      .map((row) => ({
        height: Math.round(row.getBoundingClientRect().height),
        table: row.closest('[aria-label]')?.getAttribute('aria-label') ?? 'a table',
      }))
      .reduce((tallest, row) => (row.height > tallest.height ? row : tallest), { height: 0, table: 'none' }),
  );
}

/**
 * The page widened to the desktop's size, once the browser has laid it out again and the charts' resize observers
 * have drawn them at their new width (two frames: the observers run after the first one's layout).
 */
async function widen(page: Page) {
  await page.setViewportSize(DESKTOP);
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(undefined)))),
  );
}

/**
 * Each page at the phone's size and then at the desktop's: no sideways scroll at either; axe at the desktop's on every
 * page, at the phone's on the first (`exclude`: parts of the page that are not ours).
 */
async function expectPagesFitAndPassAxe(
  page: Page,
  paths: string[],
  { exclude = [], loaded }: { exclude?: string[]; loaded: (path: string) => Promise<void> },
) {
  for (const [index, path] of paths.entries()) {
    await page.setViewportSize(PHONE);
    await page.goto(path);
    await loaded(path);
    await expectNoSidewaysScroll(page, path, 'a phone’s width');
    // A table is read at a glance on a phone too: its rows one line, or three for long text (globals.css).
    const tallest = await tallestRow(page);
    expect.soft(tallest.height, `${path}: a row of ${tallest.table} on a phone`).toBeLessThanOrEqual(120);
    if (index === 0) expect.soft(await seriousViolations(page, exclude), `${path} on a phone`).toEqual([]);
    await widen(page);
    await expectNoSidewaysScroll(page, path, 'a desktop’s width');
    // Red is a confirmation's alone: an action that loses data asks first, and its question has the red button.
    expect.soft(await page.locator('button.danger').count(), `${path}: red buttons outside a confirmation`).toBe(0);
    expect.soft(await seriousViolations(page, exclude), path).toEqual([]);
  }
}

/** A dashboard page is loaded once its heading shows and its charts' data has come (they measure their box after). */
async function dashboardPageLoaded(page: Page, path: string) {
  await expect(page.locator('h1').first(), path).toBeVisible();
  await page.waitForLoadState('networkidle');
}

test('public pages fit a phone and a desktop and pass axe', async ({ page }) => {
  await expectPagesFitAndPassAxe(page, PUBLIC_PAGES, {
    loaded: (path) => expect(page.locator('h1').first(), path).toBeVisible(),
  });
});

// The dashboard in two tests, which run at once: the apps' pages, and the settings'.
test('the apps’ pages fit a phone and a desktop and pass axe', async ({ page }) => {
  await signInAs(page, DEMO.email, DEMO.password);
  await expectPagesFitAndPassAxe(page, APP_PAGES, { loaded: (path) => dashboardPageLoaded(page, path) });
});

test('the settings’ pages, the exports’ and a key’s page fit a phone and a desktop and pass axe', async ({ page }) => {
  // The widest content people give these pages: a key named at length, with calls to several endpoints. The other
  // demo account's: the demo user's pages are read by the apps' test meanwhile, within one user's calls a minute.
  const name = 'The reporting warehouse’s nightly export job, production';
  const session = await signIn(OTHER.email, OTHER.password);
  const key = await createKey(session, 'read-only', name);
  for (const path of ['', '/keywords', '/opportunities', '/keywords/research?term=sleep']) {
    expect((await page.request.get(`${API}/apps/${OTHER_APP_ID}${path}`, { headers: bearer(key) })).status()).toBe(200);
  }
  // A failure too, for the key's request log.
  expect((await page.request.get(`${API}/apps/${OTHER_APP_ID}/no-such-view`, { headers: bearer(key) })).status()).toBe(
    404,
  );
  // An export, for the exports page's list.
  const exported = await page.request.post(`${API}/exports`, {
    headers: bearer(key),
    data: { datasets: ['keyword_ranks', 'ratings'], from: '2026-01-01', to: '2026-06-30', format: 'csv' },
  });
  expect(exported.status()).toBe(202);
  const keys = await trpcQuery<{ id: string; name: string }[]>(session, 'apiKeys.list');
  const keyPage = `/settings/api/keys/${keys.find((each) => each.name === name)!.id}`;
  await signInAs(page, OTHER.email, OTHER.password);
  await expectPagesFitAndPassAxe(page, [...SETTINGS_PAGES, keyPage], {
    loaded: (path) => dashboardPageLoaded(page, path),
  });
});

test('the API reference fits a phone and a desktop; our frame around it passes axe', async ({ page }) => {
  await expectPagesFitAndPassAxe(page, ['/docs/api'], {
    exclude: ['.scalar-app'],
    loaded: () => expect(page.getByText('ASO Analytics Public Data API').first()).toBeVisible(),
  });
  // Inside Scalar's page, what our theme can fix: its text colours, the same at every width, on a part of the page that
  // uses each of them (the sidebar has every HTTP method's colour; the introduction, a tag's header, a read and a write
  // operation have the greys, the accent and the code samples' colours). The whole reference is some 4,000 elements,
  // on which axe's contrast rule alone cost more CPU than any other page of this suite.
  let scoped = axeOn(page).withRules(['color-contrast']);
  for (const part of [
    '.references-navigation',
    '.introduction-section',
    '.tag-section-container > section.section',
    'section[id="tag/apps/get/apps"]',
    'section[id="tag/apps/post/apps"]',
  ]) {
    await expect(page.locator(`.scalar-app ${part}`).first(), part).toBeAttached();
    scoped = scoped.include(`.scalar-app ${part}`);
  }
  const contrast = await scoped.analyze();
  expect(
    contrast.violations.flatMap((violation) => violation.nodes.slice(0, 5).map((node) => node.target.join(' '))),
  ).toEqual([]);
});

test('the navigation collapses on a phone and opens from its button', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAs(page, DEMO.email, DEMO.password);
  await page.goto('/apps');
  const menu = page.getByRole('button', { name: 'Menu' });
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByRole('link', { name: 'Webhooks' })).toBeHidden();
  await menu.click();
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
  await page.getByRole('link', { name: 'Webhooks' }).click();
  await expect(page).toHaveURL(/\/settings\/webhooks$/);
  await expect(page.getByRole('button', { name: 'Menu' })).toHaveAttribute('aria-expanded', 'false');
});

test('the landing page says what the product is and leads to sign-up and the docs', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('App store optimization');
  await expect(page.getByRole('link', { name: /Start a free trial/ }).first()).toHaveAttribute('href', '/sign-up');
  await expect(page.getByRole('link', { name: 'API docs' }).first()).toHaveAttribute('href', '/docs');
  const icon = await page.request.get('/icon.svg');
  expect(icon.status()).toBe(200);
  await expect(page.locator('link[rel="icon"]')).toHaveCount(1);
});
