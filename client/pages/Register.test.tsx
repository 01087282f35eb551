import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiMessages } from '../../shared/messages';
import { field } from '../test-utils/forms';
import { renderWithProviders } from '../test-utils/render';
import { deferred, stubTrpcClient, trpcError } from '../test-utils/trpc-stub';
import { Register } from './Register';

const valid = {
  'First name': 'Dana',
  'Last name': 'Agent',
  Company: 'Acme Realty',
  Email: 'dana@example.com',
  'Phone number': '+1 (555) 123-4567',
  Password: 'password123',
  'Confirm password': 'password123',
};

function renderRegister(handlers: Parameters<typeof stubTrpcClient>[0] = {}) {
  const stub = stubTrpcClient(handlers);
  const view = renderWithProviders(<Register />, { path: '/auth/register', trpcClient: stub.client });
  return { ...view, stub };
}

async function fill(user: ReturnType<typeof renderRegister>['user'], values: Partial<typeof valid>) {
  for (const [label, value] of Object.entries(values)) {
    await user.clear(field(label));
    if (value) await user.type(field(label), value);
  }
}

const submit = () => screen.getByRole('button', { name: 'Register' });

/** The error text Mantine shows under one input. */
function errorOf(label: string): string | null {
  const input = field(label);
  const id = input
    .getAttribute('aria-describedby')
    ?.split(' ')
    .find((part) => part.endsWith('-error'));
  return id ? (document.getElementById(id)?.textContent ?? null) : null;
}

describe('Register page', () => {
  it('has every field, a link back to sign-in, and no browser validation', () => {
    const { container } = renderRegister();
    for (const label of Object.keys(valid)) expect(field(label)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/auth/login');
    expect(container.querySelector('form')).toHaveAttribute('novalidate');
  });

  it('marks every empty field with the product messages', async () => {
    const { user, stub } = renderRegister();
    await user.click(submit());
    await screen.findAllByText('This field is required');
    for (const label of ['First name', 'Last name', 'Company', 'Email', 'Phone number', 'Confirm password']) {
      expect(errorOf(label)).toBe('This field is required');
    }
    expect(errorOf('Password')).toBe('Password is required');
    expect(stub.calls).toEqual([]);
  });

  it('checks the email pattern, the phone and the passwords', async () => {
    const { user, stub } = renderRegister();
    await fill(user, {
      ...valid,
      Email: 'a@b',
      'Phone number': '555-CALL-NOW',
      Password: 'short',
      'Confirm password': 'different',
    });
    await user.click(submit());
    await screen.findByText('Invalid email address');
    expect(errorOf('Email')).toBe('Invalid email address');
    expect(errorOf('Phone number')).toBe(
      'Phone number must start with + and may include spaces, dashes, and parentheses',
    );
    expect(errorOf('Password')).toBe('Password must be at least 8 characters long');
    expect(errorOf('Confirm password')).toBe('Passwords do not match');
    expect(stub.calls).toEqual([]);
  });

  it('limits the phone number to 20 characters', async () => {
    const { user } = renderRegister();
    await fill(user, { ...valid, 'Phone number': '+1 555 123 4567 890 12' });
    await user.click(submit());
    expect(await screen.findByText('Phone number cannot exceed 20 characters')).toBeVisible();
  });

  it('reports mismatched passwords even when the password itself is fine', async () => {
    const { user } = renderRegister();
    await fill(user, { ...valid, 'Confirm password': 'password124' });
    await user.click(submit());
    expect(await screen.findByText('Passwords do not match')).toBeVisible();
    expect(errorOf('Password')).toBeNull();
  });

  it('shows Loading... while sending, then opens the verification screen with the email in the route state', async () => {
    const answer = deferred();
    const { user, stub, currentPath, historyState } = renderRegister({
      'auth.register': () => answer.promise,
    });
    await fill(user, { ...valid, Email: ' dana+new@example.com ' });
    await user.click(submit());
    expect(await screen.findByRole('button', { name: 'Loading...' })).toBeDisabled();
    expect(stub.callsTo('auth.register')).toEqual([
      {
        firstName: 'Dana',
        lastName: 'Agent',
        company: 'Acme Realty',
        email: 'dana+new@example.com',
        phoneNumber: '+1 (555) 123-4567',
        password: 'password123',
        confirmPassword: 'password123',
      },
    ]);
    answer.resolve({ message: apiMessages.registered });
    await waitFor(() => expect(currentPath()).toBe('/auth/verification/register/dana%2Bnew%40example.com'));
    expect(historyState()).toEqual({ type: 'register', email: 'dana+new@example.com' });
  });

  it("shows the server's message under the form in grey", async () => {
    const { user, currentPath } = renderRegister({
      'auth.register': () => {
        throw trpcError(409, apiMessages.emailTaken);
      },
    });
    await fill(user, valid);
    await user.click(submit());
    const message = await screen.findByRole('alert');
    expect(message).toHaveTextContent('An account with this email already exists');
    expect(message.style.color).toBe('var(--mantine-color-dimmed)');
    expect(submit()).toBeEnabled();
    expect(currentPath()).toBe('/auth/register');
  });
});
