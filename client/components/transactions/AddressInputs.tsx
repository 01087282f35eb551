import { SimpleGrid, TextInput } from '@mantine/core';

type AddressField = 'streetAddress' | 'city' | 'state' | 'zip';

/** The part of a @mantine/form form these inputs use (method syntax: any form with the fields fits). */
type AddressForm = {
  key(path: AddressField): string;
  getInputProps(path: AddressField): object;
};

/** Street Address, City, State and Zip, as the create dialog and the update form both show them. */
export function AddressInputs({ form }: { form: AddressForm }) {
  return (
    <>
      <TextInput
        label="Street Address"
        withAsterisk
        autoComplete="street-address"
        key={form.key('streetAddress')}
        {...form.getInputProps('streetAddress')}
      />
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <TextInput
          label="City"
          withAsterisk
          autoComplete="address-level2"
          key={form.key('city')}
          {...form.getInputProps('city')}
        />
        <TextInput
          label="State"
          withAsterisk
          autoComplete="address-level1"
          key={form.key('state')}
          {...form.getInputProps('state')}
        />
        <TextInput
          label="Zip"
          withAsterisk
          autoComplete="postal-code"
          key={form.key('zip')}
          {...form.getInputProps('zip')}
        />
      </SimpleGrid>
    </>
  );
}
