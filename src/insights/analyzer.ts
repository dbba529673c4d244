// Per-review analysis: sentences with their aspects, overall sentiment, language, mentioned entities,
// problems and key phrases. Everything here is derived from one review; corpus-level work is in corpus/.
import type { AnalysisInput, AspectMention, Polarity, ReviewAnalysis, ReviewAspect, SentenceAnalysis } from '../domain/index.js';
import { createMentionMatcher, foldText, type Nameable } from '../domain/index.js';
import { analyzeSentence } from './absa.js';
import { categoryFeatures, polarityFeatures, type SentenceEvidence } from './features.js';
import { implicitPatterns } from './implicit.js';
import { keyPhrases } from './keyphrases.js';
import { detectLanguage } from './language.js';
import { type Lexicon, loadLexicon } from './lexicon.js';
import { type Model, modelAspects, sigmoidProbabilities, softmaxProbabilities } from './model.js';
import { loadModel } from './model-weights.js';
import { isInflectionOfKnown, type ParsedSentence, parseText, type Token } from './nlp.js';
import { normalize, polarityOf, ratingScore, round } from './score.js';
import { ENGINE_VERSION } from './version.js';

export interface AnalyzerOptions {
  vertical: string;
  /** The trained model to use instead of the vertical's shipped one (null: the lexicon engine alone). */
  model?: Model | null;
  technicians: readonly Nameable[];
  services: readonly Nameable[];
  serviceAreas: readonly Nameable[];
}

export interface Analyzer {
  analyze(input: AnalysisInput): ReviewAnalysis;
  /**
   * The polarity an English text expresses about one aspect of the vertical, whether or not `analyze` would
   * report the aspect there (evaluation with gold aspects given asks for it).
   */
  aspectPolarity(text: string, aspect: string): Polarity;
}

/** Key phrases kept per review: enough for topics, small enough to store per review. */
const MAX_PHRASES = 8;

export function createAnalyzer(opts: AnalyzerOptions): Analyzer {
  const lex = loadLexicon(opts.vertical);
  const model = opts.model === undefined ? loadModel(lex.vertical) : opts.model;
  const technicians = createMentionMatcher(opts.technicians);
  const services = createMentionMatcher(opts.services);
  const areas = createMentionMatcher(opts.serviceAreas);

  return {
    analyze(input) {
      const text = input.text ?? '';
      // Folded once for the three matchers; whitespace runs collapse so a name broken over a line still matches.
      const folded = foldText(`${input.title ?? ''}\n${text}`).replace(/\s+/g, ' ');
      const mentions = {
        technicians: technicians.findFolded(folded),
        services: services.findFolded(folded),
        service_areas: areas.findFolded(folded),
      };
      const fromRating = round(ratingScore(input.rating), 3);
      if (text.trim() === '') return assemble(mentions, null, fromRating, null, [], [], [], []);

      const parsed = parseText(text);
      const language = detectLanguage(
        parsed.flatMap((s) => s.tokens.map((t) => t.normal)),
        input.language,
        lex,
      );
      if (language !== 'en') {
        // Our lexicons are English: other languages keep their sentence offsets but get no aspects,
        // and their sentiment is the star rating's.
        const sentences = parsed.map((s) => ({ start: s.start, end: s.end, score: 0, aspects: [] }));
        return assemble(mentions, language, fromRating, null, sentences, [], [], []);
      }

      const e = analyzeEnglish(parsed, text, lex, model);
      const sentiment = e.textSentiment === null ? fromRating : round((e.textSentiment + ratingScore(input.rating)) / 2, 3);
      return assemble(mentions, language, sentiment, e.textSentiment, e.sentences, e.aspects, e.problems, e.phrases);
    },
    aspectPolarity(text, aspect) {
      return verdict(textEvidence(text, lex), aspect, model).polarity;
    },
  };
}

/**
 * Builds every analysis with one object literal in one property order: 100k stored analyses then share a
 * single hidden class, which makes the corpus pass in buildInsights several times faster than objects
 * assembled by spreading.
 */
function assemble(
  mentions: { technicians: string[]; services: string[]; service_areas: string[] },
  language: string | null,
  sentiment: number,
  textSentiment: number | null,
  sentences: SentenceAnalysis[],
  aspects: ReviewAspect[],
  problems: string[],
  phrases: string[],
): ReviewAnalysis {
  return {
    engine: ENGINE_VERSION,
    language,
    sentiment,
    text_sentiment: textSentiment,
    sentences,
    aspects,
    technicians: mentions.technicians,
    services: mentions.services,
    service_areas: mentions.service_areas,
    problems,
    phrases,
  };
}

interface EnglishResult {
  /** Text-only sentiment, null when no sentence carries an opinion. */
  textSentiment: number | null;
  sentences: SentenceAnalysis[];
  aspects: ReviewAspect[];
  problems: string[];
  phrases: string[];
}

/** A typo of a lexicon word is matched as that word ("magnificant" → "magnificent"). */
function fixTypos(parsed: ParsedSentence[], lex: Lexicon): void {
  for (const s of parsed) {
    for (const t of s.tokens) {
      if (!t.oov || isInflectionOfKnown(t.normal)) continue;
      const fixed = lex.spelling.fix(t.normal);
      if (fixed !== null) t.lemma = fixed;
    }
  }
}

/** The evidence the lexicon engine and the implicit-pattern detectors find in one sentence's tokens. */
export function evidenceOf(tokens: Token[], text: string, lex: Lexicon): SentenceEvidence {
  return { tokens, result: analyzeSentence(tokens, text, lex), patterns: implicitPatterns(tokens) };
}

/**
 * A whole text read as one sentence, as the labelled sets label it (typos fixed): what the models are trained
 * on, and what `aspectPolarity` reads.
 */
export function sentenceEvidence(vertical: string, text: string): SentenceEvidence {
  return textEvidence(text, loadLexicon(vertical));
}

function textEvidence(text: string, lex: Lexicon): SentenceEvidence {
  const parsed = parseText(text);
  fixTypos(parsed, lex);
  return evidenceOf(
    parsed.flatMap((s) => s.tokens),
    text,
    lex,
  );
}

interface Decided {
  aspect: string;
  polarity: Polarity;
  score: number;
  phrase: string;
}

/** Rough lexicon units of a model score, so implicit verdicts weigh like an opinion word in the text score. */
const MODEL_TO_RAW = 3;

/**
 * The aspects a sentence evaluates and how. With a trained model, its category part decides which aspects
 * (the lexicon's mentions are among its features) and its polarity part how each is judged; without one,
 * the lexicon's own mentions and sums decide.
 */
function decide(ev: SentenceEvidence, lex: Lexicon, model: Model | null): Decided[] {
  const lexical = ev.result.aspects;
  let ids: string[];
  if (model?.category) {
    const c = model.category;
    ids = modelAspects(c, sigmoidProbabilities(c.weights, c.mlp, categoryFeatures(ev, c.vectors)), lexical, lex.defaultAspect);
  } else {
    ids = lexical.map((a) => a.aspect);
  }
  // The taxonomy's default aspect (restaurant: anecdotes/miscellaneous) takes a sentence no other aspect does.
  if (ids.length === 0 && lex.defaultAspect !== null) ids = [lex.defaultAspect];
  return ids.map((aspect) => ({ aspect, ...verdict(ev, aspect, model), phrase: lexical.find((a) => a.aspect === aspect)?.phrase ?? '' }));
}

/**
 * How a sentence judges one aspect. Praise and complaint attached to the same aspect is conflict; otherwise the
 * polarity model decides (where the lexicon's sum is neutral only, for a `lexicon_first` model), or the
 * lexicon's sum where there is no model.
 */
function verdict(ev: SentenceEvidence, aspect: string, model: Model | null): { polarity: Polarity; score: number } {
  const found = ev.result.aspects.find((a) => a.aspect === aspect);
  const raw = found?.raw ?? ev.result.raw;
  if (found?.conflict) return { polarity: 'conflict', score: round(normalize(raw), 2) };
  if (model?.polarity && !(model.polarity.lexiconFirst && polarityOf(raw) !== 'neutral')) return modelPolarity(ev, aspect, model);
  return { polarity: polarityOf(raw), score: round(normalize(raw), 2) };
}

function modelPolarity(ev: SentenceEvidence, aspect: string, model: Model): { polarity: Polarity; score: number } {
  const p = model.polarity!;
  const probs = softmaxProbabilities(p.weights, p.mlp, polarityFeatures(ev, aspect, p.words, p.vectors));
  let best = 0;
  for (let k = 1; k < probs.length; k++) if (probs[k] > probs[best]) best = k;
  const pos = probs[p.classes.indexOf('positive')] ?? 0;
  const neg = probs[p.classes.indexOf('negative')] ?? 0;
  return { polarity: p.classes[best], score: round(pos - neg, 2) };
}

/** Runs sentence ABSA, problem and phrase extraction over English text. */
function analyzeEnglish(parsed: ParsedSentence[], text: string, lex: Lexicon, model: Model | null): EnglishResult {
  fixTypos(parsed, lex);
  const evidence = parsed.map((s) => evidenceOf(s.tokens, text, lex));
  const decided = evidence.map((ev) => decide(ev, lex, model));
  let hasOpinion = false;
  let totalRaw = 0;
  const sentences: SentenceAnalysis[] = parsed.map((s, i) => {
    const r = evidence[i].result;
    let raw = r.raw;
    // With a model, a sentence that judges aspects scores as its judgements do: an implicit complaint ("took
    // four days to call back") counts, and a stray opinion word does not outvote the verdict on the aspects.
    // Where the lexicon agrees on the direction, its strength stands, so "very good" still outscores "good".
    const judged = decided[i].filter((d) => d.polarity === 'positive' || d.polarity === 'negative');
    if (model !== null && judged.length > 0) {
      const fromModel = (MODEL_TO_RAW * judged.reduce((sum, d) => sum + d.score, 0)) / judged.length;
      if (Math.sign(fromModel) !== Math.sign(r.raw)) raw = fromModel;
    }
    hasOpinion ||= r.hasOpinion || raw !== 0;
    totalRaw += raw;
    return {
      start: s.start,
      end: s.end,
      score: round(normalize(raw), 2),
      aspects: decided[i].map((d): AspectMention => ({ id: d.aspect, polarity: d.polarity, score: d.score })),
    };
  });

  const problems = new Set<string>();
  const phrases = new Set<string>();
  for (const s of parsed) {
    for (const m of lex.problemMatcher.matchAll(s.tokens)) problems.add(m.value);
    keyPhrases(s.tokens, lex, phrases);
  }

  return {
    textSentiment: hasOpinion ? round(normalize(totalRaw), 3) : null,
    sentences,
    aspects: reviewAspects(
      sentences,
      decided.map((d) => d.map((x) => x.phrase)),
    ),
    problems: [...problems],
    phrases: [...phrases].slice(0, MAX_PHRASES),
  };
}

/**
 * An aspect over the whole review: conflict when some sentences praise it and others complain. Its phrase
 * and quotable sentence come from the strongest mention that agrees with that overall polarity, so the
 * corpus builder never has to walk sentences. `phrases[i][k]` is the phrase of sentence i's k-th mention.
 */
function reviewAspects(sentences: SentenceAnalysis[], phrases: string[][]): ReviewAspect[] {
  const acc = new Map<
    string,
    { sum: number; n: number; pos: boolean; neg: boolean; conflict: boolean; mentions: { s: number; k: number }[] }
  >();
  sentences.forEach((s, i) =>
    s.aspects.forEach((a, k) => {
      let e = acc.get(a.id);
      if (!e) {
        e = { sum: 0, n: 0, pos: false, neg: false, conflict: false, mentions: [] };
        acc.set(a.id, e);
      }
      e.sum += a.score;
      e.n += 1;
      e.pos ||= a.polarity === 'positive';
      e.neg ||= a.polarity === 'negative';
      e.conflict ||= a.polarity === 'conflict';
      e.mentions.push({ s: i, k });
    }),
  );
  const out: ReviewAspect[] = [];
  for (const [id, e] of acc) {
    let polarity: Polarity;
    if (e.conflict || (e.pos && e.neg)) polarity = 'conflict';
    else if (e.pos) polarity = 'positive';
    else if (e.neg) polarity = 'negative';
    else polarity = 'neutral';
    const mentionOf = (m: { s: number; k: number }) => sentences[m.s].aspects[m.k];
    const agreeing = e.mentions.filter((m) => polarity === 'conflict' || mentionOf(m).polarity === polarity);
    const best = agreeing.reduce((b, m) => (Math.abs(mentionOf(m).score) > Math.abs(mentionOf(b).score) ? m : b));
    out.push({ id, polarity, score: round(e.sum / e.n, 2), phrase: phrases[best.s]?.[best.k] ?? '', sentence: best.s });
  }
  return out;
}
