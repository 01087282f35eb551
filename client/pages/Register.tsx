import { PasswordInput, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { type RegisterInput, registerInput } from '../../shared/schemas/auth';
import { serverMessageOf } from '../api/errors';
import { SubmitButton } from '../components/SubmitButton';
import { AuthFooterLink } from '../layout/AuthFooterLink';
import { AuthLayout } from '../layout/AuthLayout';
import { paths } from '../paths';
import { useTRPC } from '../trpc';
import { useOpenVerification } from './Verification';

const EMPTY: RegisterInput = {
  firstName: '',
  lastName: '',
  company: '',
  email: '',
  phoneNumber: '',
  password: '',
  confirmPassword: '',
};

/** Registration (/auth/register); success leads to the verification notice. */
export function Register() {
  const trpc = useTRPC();
  const openVerification = useOpenVerification();
  const register = useMutation(trpc.auth.register.mutationOptions());
  const form = useForm<RegisterInput>({
    mode: 'uncontrolled',
    initialValues: EMPTY,
    validate: schemaResolver(registerInput, { sync: true }),
  });

  const submit = form.onSubmit((values) => {
    const input = registerInput.parse(values);
    register.mutate(input, {
      onSuccess: () => openVerification('register', input.email),
    });
  });

  return (
    <AuthLayout title="Create an account" width={600}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label="First name"
              autoComplete="given-name"
              key={form.key('firstName')}
              {...form.getInputProps('firstName')}
            />
            <TextInput
              label="Last name"
              autoComplete="family-name"
              key={form.key('lastName')}
              {...form.getInputProps('lastName')}
            />
          </SimpleGrid>
          <TextInput
            label="Company"
            autoComplete="organization"
            key={form.key('company')}
            {...form.getInputProps('company')}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label="Email"
              type="email"
              autoComplete="email"
              key={form.key('email')}
              {...form.getInputProps('email')}
            />
            <TextInput
              label="Phone number"
              type="tel"
              autoComplete="tel"
              placeholder="+1 (555) 123-4567"
              key={form.key('phoneNumber')}
              {...form.getInputProps('phoneNumber')}
            />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <PasswordInput
              label="Password"
              autoComplete="new-password"
              key={form.key('password')}
              {...form.getInputProps('password')}
            />
            <PasswordInput
              label="Confirm password"
              autoComplete="new-password"
              key={form.key('confirmPassword')}
              {...form.getInputProps('confirmPassword')}
            />
          </SimpleGrid>
          <SubmitButton fullWidth pending={register.isPending}>
            Register
          </SubmitButton>
        </Stack>
      </form>
      {register.error && (
        <Text c="dimmed" size="sm" role="alert">
          {serverMessageOf(register.error)}
        </Text>
      )}
      <AuthFooterLink prompt="Already have an account?" href={paths.login}>
        Sign in
      </AuthFooterLink>
    </AuthLayout>
  );
}
