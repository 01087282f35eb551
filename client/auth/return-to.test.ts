import { afterEach, describe, expect, it } from 'vitest';
import { afterSignInPath, currentPagePath, loginPathFor, safeReturnPath } from './return-to';

describe('the page sign-in returns to', () => {
  it.each([
    [
      '/home/transactions/0b9e6a52-1111-4111-8111-000000000002',
      '/home/transactions/0b9e6a52-1111-4111-8111-000000000002',
    ],
    ['/calendar', '/calendar'],
    ['/admin/review?type=Purchase&page=2', '/admin/review?type=Purchase&page=2'],
    ['/home/transactions/abc#checklist-1', '/home/transactions/abc#checklist-1'],
    ['/home/../calendar', '/calendar'],
  ])('follows the path of this site %s', (raw, expected) => {
    expect(safeReturnPath(raw)).toBe(expected);
  });

  it.each([
    null,
    '',
    'home',
    'https://evil.example/home',
    '//evil.example/home',
    '/\\\\evil.example/home',
    '/\\evil.example',
    'javascript:alert(1)',
    '/home\nx',
    '/',
    '/auth/login',
    '/auth/register',
  ])('never follows %j', (raw) => {
    expect(safeReturnPath(raw)).toBeNull();
  });

  it('names the page in the sign-in path, and leaves plain sign-in for /home or nothing', () => {
    expect(loginPathFor('/calendar')).toBe('/auth/login?next=%2Fcalendar');
    expect(loginPathFor('/home')).toBe('/auth/login');
    expect(loginPathFor('https://evil.example/')).toBe('/auth/login');
    expect(loginPathFor(null)).toBe('/auth/login');
  });

  it('reads where to go from the sign-in query, /home when it is absent or unsafe', () => {
    expect(afterSignInPath('next=%2Fhome%2Ftransactions%2Fabc')).toBe('/home/transactions/abc');
    expect(afterSignInPath('?next=%2Fcalendar')).toBe('/calendar');
    expect(afterSignInPath('')).toBe('/home');
    expect(afterSignInPath('next=https%3A%2F%2Fevil.example')).toBe('/home');
    expect(afterSignInPath('next=%2F%2Fevil.example')).toBe('/home');
  });

  describe('the page the browser is on', () => {
    afterEach(() => window.history.replaceState(null, '', '/'));

    it('is the path, query and hash of the address bar', () => {
      window.history.replaceState(null, '', '/admin/review?page=3#top');
      expect(currentPagePath()).toBe('/admin/review?page=3#top');
    });
  });
});
