import { describe, expect, it } from 'vitest';
import { proposeRanges } from '../../../shared/intake/suggestions';
import { rangesFromProposal, type SplitRange, splitParts, splitReducer } from './split-ranges';

const CHECKLIST = [
  { formId: 'rpa', label: 'Residential Purchase Agreement' },
  { formId: 'agency', label: 'Agency Disclosure' },
  { formId: 'wire', label: 'Wire Fraud Advisory' },
];

// The pages of a packet as pdf.js reads them: a title at the top of each document's first page.
const PACKET = [
  'Residential Purchase Agreement\nThe buyer offers to purchase the property...',
  'Signatures of buyer and seller',
  'Agency Disclosure\nDisclosure regarding real estate agency relationship',
  'Wire Fraud Advisory\nNever wire money on instructions received by e-mail',
  'Acknowledgment of receipt',
];

describe('the packet splitter', () => {
  it('sends one part per proposed document, with its pages as text', () => {
    const ranges = rangesFromProposal(proposeRanges(PACKET, CHECKLIST));
    expect(ranges).toEqual([
      { first: 1, last: 2, formId: 'rpa' },
      { first: 3, last: 3, formId: 'agency' },
      { first: 4, last: 5, formId: 'wire' },
    ]);
    expect(splitParts(ranges)).toEqual([
      { formId: 'rpa', pages: '1-2' },
      { formId: 'agency', pages: '3' },
      { formId: 'wire', pages: '4-5' },
    ]);
  });

  it('starts a new, unassigned document inside a range, and never on its first page', () => {
    const ranges: SplitRange[] = [{ first: 1, last: 5, formId: 'rpa' }];
    const cut = splitReducer(ranges, { type: 'start', page: 4 });
    expect(cut).toEqual([
      { first: 1, last: 3, formId: 'rpa' },
      { first: 4, last: 5, formId: null },
    ]);
    expect(splitReducer(cut, { type: 'start', page: 4 })).toEqual(cut);
    // Left out until the agent names it.
    expect(splitParts(cut)).toEqual([{ formId: 'rpa', pages: '1-3' }]);
    expect(splitParts(splitReducer(cut, { type: 'assign', index: 1, formId: 'wire' }))).toEqual([
      { formId: 'rpa', pages: '1-3' },
      { formId: 'wire', pages: '4-5' },
    ]);
  });

  it('merges a range into the one before it, which keeps its item', () => {
    const ranges: SplitRange[] = [
      { first: 1, last: 2, formId: 'rpa' },
      { first: 3, last: 3, formId: 'agency' },
      { first: 4, last: 5, formId: 'wire' },
    ];
    expect(splitReducer(ranges, { type: 'merge', index: 1 })).toEqual([
      { first: 1, last: 3, formId: 'rpa' },
      { first: 4, last: 5, formId: 'wire' },
    ]);
    // The first range has nothing before it.
    expect(splitReducer(ranges, { type: 'merge', index: 0 })).toEqual(ranges);
  });

  it('leaves out unassigned pages, and joins the ranges of one item into one part', () => {
    const ranges: SplitRange[] = [
      { first: 1, last: 2, formId: 'rpa' },
      { first: 3, last: 3, formId: null },
      { first: 4, last: 4, formId: 'agency' },
      { first: 5, last: 6, formId: 'rpa' },
    ];
    expect(splitParts(ranges)).toEqual([
      { formId: 'rpa', pages: '1-2,5-6' },
      { formId: 'agency', pages: '4' },
    ]);
    expect(splitParts(ranges.map((range) => ({ ...range, formId: null })))).toEqual([]);
  });
});
