/**
 * Which checklist item a document most likely is, from its text. Shared: the
 * server ranks a whole upload (the answer's `suggestions`), the packet splitter ranks each page
 * with the text pdf.js reads in the browser, and both agree.
 *
 * How a label scores against a text (0 to 1). The text is lower-cased, stripped of accents,
 * punctuation and common words, and its words reduced to their stem ("sheets" -> "sheet"). Then:
 * - the label is *named* where its words, or those of a name the same document goes by on real
 *   forms (ALIASES), stand together: as a phrase, or all of them within a short span ("HOME
 *   STAGING SERVICES AGREEMENT" names "Staging Agreement"). A document is named in its title,
 *   first, and other documents are named in its body, later: a label named at character p of the
 *   text scores 1 - 0.2 x min(p, 1000) / 1000, so from 1 (the title) down to 0.8;
 * - a label never named scores 0.7 x the share of its words found anywhere, each word weighted by
 *   how rare it is among this checklist's labels ("lead" and "paint" tell more than "disclosure").
 * Only scores of at least MIN_SCORE are suggested. The test beside the intake service measures
 * them on the seeded checklists (docs/ARCHITECTURE.md quotes its figures).
 */

export type ChecklistEntry = { formId: string; label: string };
export type RankedEntry = ChecklistEntry & { score: number };

export const MIN_SCORE = 0.5;
/** Named within the first 150 characters (score 0.97 or more): the page's title. */
export const TITLE_SCORE = 0.97;
/** Named this far in or further scores the floor of a naming, NAMED_FLOOR. */
const POSITION_SCALE = 1000;
const NAMED_FLOOR = 0.8;
const WORDS_WEIGHT = 0.7;
const MAX_SUGGESTIONS = 3;
/** All of a label's words within this many times its own length name it. */
const SPAN_FACTOR = 2.5;
const SPREAD_COST = 3;

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

/** The label's stemmed words, and those of each alias: every way the document is named. */
function namesOf(label: string): string[][] {
  const normalized = normalizeText(label);
  const own = wordsOf(normalized);
  const aliases = ALIASES[own.join(' ')] ?? ALIASES[normalized] ?? [];
  return [own, ...aliases.map((alias) => wordsOf(alias))].filter((words) => words.length > 0);
}

type Word = { word: string; at: number };

/** The text's stemmed words with where each starts (in characters of the stemmed text). */
function indexWords(words: readonly string[]): Word[] {
  let at = 0;
  return words.map((word) => {
    const entry = { word, at };
    at += word.length + 1;
    return entry;
  });
}

/**
 * Where all `name` words stand within a span of SPAN_FACTOR x the name's length, or -1 (a sliding
 * window over their occurrences). A span wider than the name counts as further in, by
 * SPREAD_COST per extra character: "GUARANTEE OF RESIDENTIAL LEASE / CO-SIGNER AGREEMENT" names
 * "Co-Signer Agreement" as a phrase before it names "Residential Lease Agreement" spread out.
 */
function namedAt(text: readonly Word[], name: readonly string[]): number {
  const wanted = new Set(name);
  const nameLength = name.join(' ').length;
  const limit = Math.max(nameLength * SPAN_FACTOR, 24);
  let best = -1;
  const hits = text.filter((entry) => wanted.has(entry.word));
  const counts = new Map<string, number>();
  let left = 0;
  for (let right = 0; right < hits.length; right += 1) {
    const entering = hits[right] as Word;
    counts.set(entering.word, (counts.get(entering.word) ?? 0) + 1);
    const end = entering.at + entering.word.length;
    // Drop words from the left while the window is too wide or holds them twice.
    while (left < right) {
      const leaving = hits[left] as Word;
      const count = counts.get(leaving.word) ?? 0;
      if (end - leaving.at <= limit && count === 1) break;
      if (count === 1) counts.delete(leaving.word);
      else counts.set(leaving.word, count - 1);
      left += 1;
    }
    const start = hits[left] as Word;
    if (counts.size === wanted.size && end - start.at <= limit) {
      const at = start.at + SPREAD_COST * Math.max(0, end - start.at - nameLength);
      if (best < 0 || at < best) best = at;
    }
  }
  return best;
}

/**
 * The items `text` most likely is, best first (at most three, each scoring MIN_SCORE or more).
 * `items` is the checklist: the rarity of a word is counted among its labels.
 */
export function rankChecklist(text: string, items: readonly ChecklistEntry[]): RankedEntry[] {
  const words = wordsOf(normalizeText(text));
  if (words.length === 0 || items.length === 0) return [];
  const indexed = indexWords(words);
  const present = new Set(words);
  const labelWords = items.map((item) => [...new Set(wordsOf(normalizeText(item.label)))]);
  const documentFrequency = new Map<string, number>();
  for (const own of labelWords)
    for (const word of own) documentFrequency.set(word, (documentFrequency.get(word) ?? 0) + 1);
  const weightOf = (word: string) => Math.log(1 + items.length / (documentFrequency.get(word) ?? 1));

  const ranked = items.map((item, index): RankedEntry => {
    const places = namesOf(item.label)
      .map((name) => namedAt(indexed, name))
      .filter((at) => at >= 0);
    if (places.length > 0) {
      const at = Math.min(Math.min(...places), POSITION_SCALE);
      return { ...item, score: round(1 - ((1 - NAMED_FLOOR) * at) / POSITION_SCALE) };
    }
    const own = labelWords[index] ?? [];
    const total = own.reduce((sum, word) => sum + weightOf(word), 0);
    const found = own.filter((word) => present.has(word)).reduce((sum, word) => sum + weightOf(word), 0);
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
