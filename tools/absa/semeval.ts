// SemEval-2014 Task 4 scoring (subtasks 3 and 4) for any vertical: aspect-category detection scored per
// sentence as predicted set vs gold set (micro precision/recall/F1, as the official scorer does), and
// category polarity accuracy with the gold categories given (4 classes: positive/negative/neutral/conflict).
// Reads any file in the SemEval XML shape: the task's own, MAMS-ACSA, and the project's sets in data/absa/.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { POLARITIES, type Polarity } from '../../src/domain/index.js';
import type { Analyzer } from '../../src/insights/index.js';

export interface GoldSentence {
  id: string;
  text: string;
  categories: { category: string; polarity: Polarity }[];
}

export interface Prediction {
  categories: Set<string>;
  polarityOf(category: string): Polarity;
}

export interface EvalResult {
  sentences: number;
  precision: number;
  recall: number;
  f1: number;
  polarityAccuracy: number;
  polarityTotal: number;
  /** gold → predicted → count, for the 4 polarity classes. */
  confusion: Record<string, Record<string, number>>;
  perCategory: Record<string, { tp: number; fp: number; fn: number }>;
}

const POLARITY_SET: ReadonlySet<string> = new Set(POLARITIES);

/** The sentences of a file in the SemEval-2014 shape (see parseSemEvalSet for what it refuses). */
export function parseSemEvalXml(xml: string): GoldSentence[] {
  return parseSemEvalSet(xml).sentences;
}

/**
 * A writers' batch for `vertical`: its root must name that vertical (`<sentences vertical="...">`, as the guidelines
 * ask), so a batch of another vertical is refused even where its sentences carry no label to tell.
 */
export function parseBatchXml(xml: string, vertical: string): GoldSentence[] {
  const set = parseSemEvalSet(xml);
  if (set.vertical !== vertical)
    throw new Error(set.vertical === null ? 'the root names no vertical' : `the root names vertical "${set.vertical}", not "${vertical}"`);
  return set.sentences;
}

/**
 * A SemEval-shaped file's sentences and the vertical its root names (null where it names none: SemEval, MAMS).
 * Refuses what would otherwise read as something else: XML that is not well formed, a root other than <sentences>,
 * and a sentence without a plain <text> (missing, or holding markup). Texts stay strings as written ("007" is not a
 * number). Attributes are read apart from child elements, so a <vertical> element does not pass for the attribute.
 */
function parseSemEvalSet(xml: string): { vertical: string | null; sentences: GoldSentence[] } {
  const wellFormed = XMLValidator.validate(xml);
  if (wellFormed !== true) throw new Error(`not well-formed XML: ${wellFormed.err.msg} (line ${wellFormed.err.line})`);
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    parseTagValue: false,
    isArray: (name) => name === 'sentence' || name === 'aspectCategory' || name === 'aspectTerm',
  });
  const doc = parser.parse(xml) as {
    sentences?:
      | {
          '@_vertical'?: unknown;
          sentence?: {
            '@_id'?: string;
            text?: unknown;
            aspectCategories?: { aspectCategory?: { '@_category': string; '@_polarity': string }[] } | '';
          }[];
        }
      | '';
  };
  if (doc.sentences === undefined) throw new Error('the root element is not <sentences>');
  const root = doc.sentences === '' ? undefined : doc.sentences;
  // MAMS sentences carry no id: their position (from 1) stands in.
  const sentences = (root?.sentence ?? []).map((s, i) => {
    const id = s['@_id'] ?? String(i + 1);
    if (typeof s.text !== 'string') throw new Error(`sentence ${id}: no <text>, or markup inside it`);
    return {
      id,
      text: s.text,
      categories: ((s.aspectCategories === '' ? undefined : s.aspectCategories)?.aspectCategory ?? []).map((c) => {
        const polarity = c['@_polarity'];
        if (!POLARITY_SET.has(polarity)) throw new Error(`sentence ${id}: unknown polarity ${polarity}`);
        return { category: c['@_category'], polarity: polarity as Polarity };
      }),
    };
  });
  const vertical = root?.['@_vertical'];
  return { vertical: typeof vertical === 'string' ? vertical : null, sentences };
}

/**
 * MAMS-ACSA's eight restaurant categories in SemEval's five (the mapping its README gives). Two MAMS
 * categories that merge into one keep their polarity when they agree; praise and complaint become conflict;
 * otherwise the non-neutral one wins.
 */
const MAMS_TO_SEMEVAL: Record<string, string> = {
  food: 'food',
  menu: 'food',
  service: 'service',
  staff: 'service',
  price: 'price',
  ambience: 'ambience',
  place: 'ambience',
  miscellaneous: 'anecdotes/miscellaneous',
};
const MAMS_ONLY = new Set(['menu', 'staff', 'place', 'miscellaneous']);

/** For the restaurant vertical, a file that uses MAMS's categories is mapped onto SemEval's. */
export function mapCategories(gold: GoldSentence[], vertical: string): { sentences: GoldSentence[]; mapped: boolean } {
  if (vertical !== 'restaurant' || !gold.some((s) => s.categories.some((c) => MAMS_ONLY.has(c.category))))
    return { sentences: gold, mapped: false };
  const sentences = gold.map((s) => {
    const merged = new Map<string, Polarity>();
    for (const c of s.categories) {
      const to = MAMS_TO_SEMEVAL[c.category] ?? c.category;
      const before = merged.get(to);
      merged.set(to, before === undefined ? c.polarity : mergePolarity(before, c.polarity));
    }
    return { ...s, categories: [...merged].map(([category, polarity]) => ({ category, polarity })) };
  });
  return { sentences, mapped: true };
}

function mergePolarity(a: Polarity, b: Polarity): Polarity {
  if (a === b) return a;
  if (a === 'neutral') return b;
  if (b === 'neutral') return a;
  return 'conflict';
}

/** The analyzer's answer for one sentence, treated as a one-sentence review. */
export function predict(analyzer: Analyzer, sentence: GoldSentence): Prediction {
  // Rating 3 is neutral, so the text alone decides; the star rating is not part of the task.
  const a = analyzer.analyze({ id: sentence.id, rating: 3, text: sentence.text, title: null, language: 'en' });
  const byAspect = new Map(a.aspects.map((x) => [x.id, x.polarity]));
  return {
    categories: new Set(byAspect.keys()),
    // A gold category the engine did not detect still needs a polarity: the engine's reading of it there.
    polarityOf: (category) => byAspect.get(category) ?? analyzer.aspectPolarity(sentence.text, category),
  };
}

export function evaluate(gold: GoldSentence[], predictFn: (s: GoldSentence) => Prediction): EvalResult {
  let common = 0;
  let retrieved = 0;
  let relevant = 0;
  let correct = 0;
  let total = 0;
  const confusion: EvalResult['confusion'] = {};
  const perCategory: EvalResult['perCategory'] = {};
  const cat = (c: string) => (perCategory[c] ??= { tp: 0, fp: 0, fn: 0 });
  for (const s of gold) {
    const p = predictFn(s);
    const goldSet = new Set(s.categories.map((c) => c.category));
    for (const c of p.categories) {
      if (goldSet.has(c)) cat(c).tp++;
      else cat(c).fp++;
    }
    for (const c of goldSet) if (!p.categories.has(c)) cat(c).fn++;
    retrieved += p.categories.size;
    relevant += goldSet.size;
    for (const c of goldSet) if (p.categories.has(c)) common++;
    for (const { category, polarity } of s.categories) {
      const predicted = p.polarityOf(category);
      total++;
      if (predicted === polarity) correct++;
      confusion[polarity] ??= {};
      confusion[polarity][predicted] = (confusion[polarity][predicted] ?? 0) + 1;
    }
  }
  const precision = retrieved === 0 ? 0 : common / retrieved;
  const recall = relevant === 0 ? 0 : common / relevant;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return {
    sentences: gold.length,
    precision,
    recall,
    f1,
    polarityAccuracy: total === 0 ? 0 : correct / total,
    polarityTotal: total,
    confusion,
    perCategory,
  };
}

const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttribute = (value: string) => escapeText(value).replace(/"/g, '&quot;');

/**
 * Sentences in the shape of the project's sets (data/absa/): the SemEval-2014 XML with the vertical and the split
 * as attributes of the root, one category per line, an empty `<aspectCategories/>` for a sentence with none.
 */
export function semEvalXml(sentences: readonly GoldSentence[], { vertical, split }: { vertical: string; split: string }): string {
  const categories = (s: GoldSentence) =>
    s.categories.length === 0
      ? '    <aspectCategories/>\n'
      : `    <aspectCategories>\n${s.categories
          .map((c) => `      <aspectCategory category="${escapeAttribute(c.category)}" polarity="${c.polarity}"/>\n`)
          .join('')}    </aspectCategories>\n`;
  const body = sentences
    .map((s) => `  <sentence id="${escapeAttribute(s.id)}">\n    <text>${escapeText(s.text)}</text>\n${categories(s)}  </sentence>\n`)
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sentences vertical="${escapeAttribute(vertical)}" split="${escapeAttribute(split)}">\n${body}</sentences>\n`;
}
