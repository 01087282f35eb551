import { SimpleGrid, TextInput } from '@mantine/core';

type NameField = 'firstName' | 'lastName';

/** The part of a @mantine/form form these inputs use (method syntax: any form with the fields fits). */
type NameForm = {
  key(path: NameField): string;
  getInputProps(path: NameField): object;
};

type NameInputsProps = {
  form: NameForm;
  /** From which screen width the two fields sit side by side; a dialog is narrower than a page. */
  sideBySideFrom: 'xs' | 'sm';
};

/** First name and Last name, as the profile form and the Add user dialog both ask for them. */
export function NameInputs({ form, sideBySideFrom }: NameInputsProps) {
  return (
    <SimpleGrid cols={{ base: 1, [sideBySideFrom]: 2 }}>
      <TextInput
        label="First name"
        withAsterisk
        key={form.key('firstName')}
        {...form.getInputProps('firstName')}
      />
      <TextInput
        label="Last name"
        withAsterisk
        key={form.key('lastName')}
        {...form.getInputProps('lastName')}
      />
    </SimpleGrid>
  );
}
