import { useRef, useState } from 'react';
import type { FieldKind } from '../../../shared/schemas/esign';
import {
  fieldAt,
  keptOnPage,
  type PageSize,
  type PlacedField,
  requestFields,
  withoutSigner,
} from './placement';
import type { SignerDraft } from './SignersEditor';

/**
 * A signature request being written: its signers, the fields placed for them, and which signer
 * and kind the next field placed is for. Removing a signer removes their fields; the fields of
 * the signers after them follow.
 */
export function useSignatureDraft() {
  const [signers, setSigners] = useState<SignerDraft[]>([{ name: '', email: '' }]);
  const [fields, setFields] = useState<PlacedField[]>([]);
  const [placingSigner, setPlacingSigner] = useState(0);
  const [placingKind, setPlacingKind] = useState<FieldKind>('signature');
  const nextKey = useRef(1);

  const place = (page: number, point: { x: number; y: number }, size: PageSize) => {
    const key = nextKey.current++;
    setFields((current) => [
      ...current,
      fieldAt(point, { key, signer: placingSigner, page, kind: placingKind }, size),
    ]);
  };

  const move = (key: number, to: { x: number; y: number }, size: PageSize) =>
    setFields((current) =>
      current.map((field) => (field.key === key ? keptOnPage({ ...field, ...to }, size) : field)),
    );

  const removeField = (key: number) => setFields((current) => current.filter((field) => field.key !== key));

  const changeSigner = (index: number, signer: SignerDraft) =>
    setSigners((current) => current.map((each, at) => (at === index ? signer : each)));

  const addSigner = () => {
    setSigners((current) => [...current, { name: '', email: '' }]);
    // The one just added is whom the agent places fields for next.
    setPlacingSigner(signers.length);
  };

  const removeSigner = (index: number) => {
    setSigners((current) => current.filter((_, at) => at !== index));
    setFields((current) => withoutSigner(current, index));
    setPlacingSigner((current) => (current > index ? current - 1 : Math.min(current, signers.length - 2)));
  };

  const fieldCounts = signers.map((_, index) => fields.filter((field) => field.signer === index).length);

  return {
    signers,
    fields,
    fieldCounts,
    placingSigner,
    placingKind,
    setPlacingSigner,
    setPlacingKind,
    place,
    move,
    removeField,
    changeSigner,
    addSigner,
    removeSigner,
    /** The request's signers and fields, as the server takes them. */
    request: () => ({
      signers: signers.map((signer) => ({ name: signer.name.trim(), email: signer.email.trim() })),
      fields: requestFields(fields),
    }),
  };
}

export type SignatureDraft = ReturnType<typeof useSignatureDraft>;
