import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { E2E_OWNER } from '../../playwright.config';
import { linkFromMail } from './outbox';

/** Accounts for browser tests, made through the public API exactly as people would. */

export async function apiSignIn(request: APIRequestContext, email: string, password: string) {
  const res = await request.post('/api/auth/login', { data: { email, password } });
  expect(res.status()).toBe(200);
  return (await res.json()) as { token: string; refreshToken: string; _id: string };
}

/**
 * An active agent, added by the owner (POST /api/users): signed up and approved in one step.
 * Not through /api/auth/register: that allows 20 sign-ups an hour from one address,
 * and the whole suite runs from one; registration itself has its own journeys
 * (auth.spec.ts, and the page tour's visitors).
 */
export async function approvedAgent(request: APIRequestContext, firstName: string) {
  const email = `${firstName.toLowerCase()}-${Date.now()}@example.com`;
  const password = `${firstName} password 1`;
  const owner = await apiSignIn(request, E2E_OWNER.email, E2E_OWNER.password);
  const created = await request.post('/api/users', {
    headers: { authorization: `Bearer ${owner.token}` },
    data: {
      firstName,
      lastName: 'Tester',
      company: 'Coastal Homes',
      email,
      phoneNumber: '+1 555 010 4455',
      password,
      role: 'user',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const id = ((await created.json()) as { _id: string })._id;
  const session = await apiSignIn(request, email, password);
  return { email, password, id, token: session.token };
}

/**
 * Registered, verified by the e-mailed link, approved by the owner: for a journey that follows
 * what approval does (its notification). Counts against the 20 sign-ups an hour of one address.
 */
export async function registeredAndApprovedAgent(request: APIRequestContext, firstName: string) {
  const email = `${firstName.toLowerCase()}-${Date.now()}@example.com`;
  const password = `${firstName} password 1`;
  const registered = await request.post('/api/auth/register', {
    data: {
      firstName,
      lastName: 'Tester',
      company: 'Coastal Homes',
      email,
      phoneNumber: '+1 555 010 4455',
      password,
      confirmPassword: password,
    },
  });
  expect(registered.status()).toBe(201);
  const token = (await linkFromMail(email, '/auth/verify-email/')).split('/').pop();
  expect((await request.post('/api/auth/verify-email', { data: { token } })).status()).toBe(200);
  const owner = await apiSignIn(request, E2E_OWNER.email, E2E_OWNER.password);
  const headers = { authorization: `Bearer ${owner.token}` };
  const found = await request.get(`/api/users?query=${encodeURIComponent(email)}`, { headers });
  const id = ((await found.json()).users as Array<{ _id: string }>)[0]?._id as string;
  expect((await request.get(`/api/users/activate/${id}`, { headers })).status()).toBe(200);
  const session = await apiSignIn(request, email, password);
  return { email, password, id, token: session.token };
}

export async function signIn(page: Page, email: string, password: string) {
  await page.goto('/auth/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/home$/);
}
