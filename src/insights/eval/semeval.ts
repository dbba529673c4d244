// SemEval-2014 Task 4 (restaurants), subtasks 3 and 4: aspect-category detection scored per sentence as
// predicted set vs gold set (micro precision/recall/F1, as the official scorer does), and category
// polarity accuracy with the gold categories given (4 classes: positive/negative/neutral/conflict).
import { XMLParser } from 'fast-xml-parser';
import type { Polarity } from '../../domain/insights.js';
import type { Analyzer } from '../analyzer.js';
import { polarityOfScore } from '../score.js';

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

const POLARITIES = new Set(['positive', 'negative', 'neutral', 'conflict']);

export function parseSemEvalXml(xml: string): GoldSentence[] {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    isArray: (name) => name === 'sentence' || name === 'aspectCategory' || name === 'aspectTerm',
  });
  const doc = parser.parse(xml) as {
    sentences?: { sentence?: { id: string | number; text: string | number; aspectCategories?: { aspectCategory?: { category: string; polarity: string }[] } }[] };
  };
  return (doc.sentences?.sentence ?? []).map((s) => ({
    id: String(s.id),
    text: String(s.text),
    categories: (s.aspectCategories?.aspectCategory ?? []).map((c) => {
      if (!POLARITIES.has(c.polarity)) throw new Error(`sentence ${s.id}: unknown polarity ${c.polarity}`);
      return { category: c.category, polarity: c.polarity as Polarity };
    }),
  }));
}

/** The shipped analyzer's answer for one sentence, treated as a one-sentence review. */
export function predict(analyzer: Analyzer, sentence: GoldSentence): Prediction {
  // Rating 3 is neutral, so the text alone decides; the star rating is not part of the task.
  const a = analyzer.analyze({ id: sentence.id, rating: 3, text: sentence.text, title: null, language: 'en' });
  const byAspect = new Map(a.aspects.map((x) => [x.id, x.polarity]));
  // A gold category we did not detect still needs a polarity: the sentence's overall one.
  const fallback = a.text_sentiment === null ? 'neutral' : polarityOfScore(a.text_sentiment);
  return {
    categories: new Set(byAspect.keys()),
    polarityOf: (category) => byAspect.get(category) ?? fallback,
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
  return { sentences: gold.length, precision, recall, f1, polarityAccuracy: total === 0 ? 0 : correct / total, polarityTotal: total, confusion, perCategory };
}
