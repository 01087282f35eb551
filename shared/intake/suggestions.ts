/**
 * Which checklist item a document most likely is, from its text (DESIGN.md 12.5). Shared: the
 * server ranks a whole upload (the answer's `suggestions`), the packet splitter ranks each page
 * with the text pdf.js reads in the browser, and both agree.
 *
 * How a label scores against a text (0 to 1):
 * - the label, or a name the same document goes by on real forms (ALIASES), appears as a phrase
 *   near the top of the text (its title): 0.9 to 1, earlier is higher;
 * - the phrase appears further down (a body that mentions another document): 0.8;
 * - otherwise 0.7 x the share of the label's words found in the text, each word weighted by how
 *   rare it is among this checklist's labels ("lead" and "paint" tell more than "disclosure").
 * Only scores of at least MIN_SCORE are suggested. docs/ARCHITECTURE.md gives the figures on the
 * seeded checklists.
 */

export type ChecklistEntry = { formId: string; label: string };
export type RankedEntry = ChecklistEntry & { score: number };

export const MIN_SCORE = 0.5;
/** A phrase this near the top reads as the document's title. */
const TITLE_CHARS = 400;
/** Title matches score at least this: the packet splitter starts a new document on one. */
export const TITLE_SCORE = 0.9;
const MENTION_SCORE = 0.8;
const WORDS_WEIGHT = 0.7;
const MAX_SUGGESTIONS = 3;

const STOP_WORDS = new Set([
  'a',
  'an',
  'and',
  'the',
  'of',
  'for',
  'to',
  'in',
  'on',
  'or',
  'by',
  'with',
  'form',
]);

/**
 * Other names of the seeded checklist's documents, as the standard forms title them (keys and
 * values normalized). A brokerage's own labels still match by their words.
 */
const ALIASES: Record<string, string[]> = {
  'agency disclosure': [
    'disclosure regarding real estate agency relationship',
    'agency relationship disclosure',
  ],
  'w 9': ['request for taxpayer identification number and certification'],
  'lead based paint disclosure': ['lead based paint and lead based paint hazards'],
  'mls input sheet': ['mls data input', 'mls listing input'],
  'earnest money deposit receipt': ['receipt for earnest money', 'earnest money receipt'],
  'preliminary title report': ['preliminary report'],
  'seller property disclosure statement': ['seller property disclosure', 'transfer disclosure statement'],
  'residential purchase agreement': ['purchase agreement and joint escrow instructions', 'offer to purchase'],
  'wire fraud advisory': ['wire fraud and electronic funds transfer advisory'],
  'renters insurance certificate': ['certificate of renters insurance', 'renters insurance policy'],
  'credit report authorization': ['authorization to obtain credit report', 'consent to credit check'],
};

/** Lower case, no accents, apostrophes dropped, anything else not a letter or digit a space. */
export function normalizeText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['\u2019]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

function wordsOf(normalized: string): string[] {
  return normalized
    .split(' ')
    .filter((word) => word && !STOP_WORDS.has(word))
    .map(stem);
}

/** The label and its aliases as phrases to look for, normalized ("W-9 Form" -> "w 9"). */
function phrasesOf(label: string): string[] {
  const base = wordsOf(normalizeText(label)).join(' ');
  const normalized = normalizeText(label);
  return [...new Set([normalized, base, ...(ALIASES[base] ?? ALIASES[normalized] ?? [])])].filter(Boolean);
}

/** Where `phrase` first occurs in `text` as whole words, or -1. */
function phraseAt(text: string, phrase: string): number {
  let from = 0;
  for (;;) {
    const at = text.indexOf(phrase, from);
    if (at < 0) return -1;
    const before = at === 0 || text[at - 1] === ' ';
    const after = at + phrase.length === text.length || text[at + phrase.length] === ' ';
    if (before && after) return at;
    from = at + 1;
  }
}

/**
 * The items `text` most likely is, best first (at most three, each scoring MIN_SCORE or more).
 * `items` is the checklist: the rarity of a word is counted among its labels.
 */
export function rankChecklist(text: string, items: readonly ChecklistEntry[]): RankedEntry[] {
  const normalized = normalizeText(text);
  if (!normalized || items.length === 0) return [];
  // The stemmed text too: labels are compared word by word after stemming.
  const stemmedText = wordsOf(normalized).join(' ');
  const present = new Set(stemmedText.split(' '));
  const labelWords = items.map((item) => [...new Set(wordsOf(normalizeText(item.label)))]);
  const documentFrequency = new Map<string, number>();
  for (const words of labelWords)
    for (const word of words) documentFrequency.set(word, (documentFrequency.get(word) ?? 0) + 1);
  const weightOf = (word: string) => Math.log(1 + items.length / (documentFrequency.get(word) ?? 1));

  const ranked = items.map((item, index): RankedEntry => {
    let best = -1;
    for (const phrase of phrasesOf(item.label)) {
      for (const haystack of [normalized, stemmedText]) {
        const at = phraseAt(haystack, phrase);
        if (at >= 0 && (best < 0 || at < best)) best = at;
      }
    }
    if (best >= 0 && best < TITLE_CHARS)
      return { ...item, score: round(1 - (1 - TITLE_SCORE) * (best / TITLE_CHARS)) };
    if (best >= 0) return { ...item, score: MENTION_SCORE };
    const words = labelWords[index] ?? [];
    const total = words.reduce((sum, word) => sum + weightOf(word), 0);
    const found = words.filter((word) => present.has(word)).reduce((sum, word) => sum + weightOf(word), 0);
    return { ...item, score: total > 0 ? round((WORDS_WEIGHT * found) / total) : 0 };
  });
  return ranked
    .filter((entry) => entry.score >= MIN_SCORE)
    .sort((a, b) => b.score - a.score || b.label.length - a.label.length)
    .slice(0, MAX_SUGGESTIONS);
}

const round = (score: number) => Math.round(score * 1000) / 1000;

/** A run of pages the splitter proposes for one item (null: no item recognised). */
export type PageRange = { formId: string | null; first: number; last: number };

/**
 * The packet splitter's first proposal: a page whose top is an item's title starts that item's
 * range; any other page (a second page, a signature page, a blank one, a scan with no text)
 * continues the range before it. Consecutive ranges of one item merge.
 */
export function proposeRanges(pageTexts: readonly string[], items: readonly ChecklistEntry[]): PageRange[] {
  const ranges: PageRange[] = [];
  pageTexts.forEach((text, index) => {
    const page = index + 1;
    const best = rankChecklist(text, items)[0];
    const current = ranges.at(-1);
    const starts = best !== undefined && best.score >= TITLE_SCORE;
    if (current && (!starts || best.formId === current.formId)) {
      current.last = page;
      return;
    }
    ranges.push({ formId: starts ? best.formId : null, first: page, last: page });
  });
  return ranges;
}
