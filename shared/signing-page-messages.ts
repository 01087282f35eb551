/**
 * The words of the public signing page a signer opens from the mailed link. A module of their own,
 * not messages.ts: messages.ts travels in the first download of every visit, which has a budget
 * (scripts/check-bundle-budget.mjs), while only the signing page (a lazy route) reads these, so
 * they arrive with its code.
 */
export const esignPageMessages = {
  invalidLink:
    'This signing link is not valid. Use the latest e-mail you received, or ask the sender for a new one.',
  consent:
    'I agree to use electronic records and signatures, and that my electronic signature is the legal equivalent of my handwritten signature.',
  dateFilledIn: 'Filled in when you sign',
  signed: 'Signed, thank you. The sender has been told; you may close this page.',
  alreadySigned: 'You have already signed this document. Thank you.',
  declined: 'You declined to sign. The sender has been told.',
  noLongerOpen: 'This request no longer takes signatures.',
} as const;
