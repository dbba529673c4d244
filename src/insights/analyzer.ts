// Per-review analysis: sentences with their aspects, overall sentiment, language, mentioned entities,
// problems and key phrases. Everything here is derived from one review; corpus-level work is in corpus/.
import type { AspectMention, Polarity, ReviewAnalysis, ReviewAspect, SentenceAnalysis } from '../domain/insights.js';
import { analyzeSentence } from './absa.js';
import { keyPhrases } from './keyphrases.js';
import { detectLanguage } from './language.js';
import { loadLexicon, type Lexicon } from './lexicon.js';
import { createMentionMatcher, foldText, type Nameable } from '../domain/mentions.js';
import { isInflectionOfKnown, parseText, type ParsedSentence } from './nlp.js';
import { normalize, polarityOf, polarityOfScore, ratingScore, round } from './score.js';
import { ENGINE_VERSION } from './version.js';

export interface AnalysisInput {
  id: string;
  rating: number;
  text: string | null;
  title: string | null;
  language: string | null;
}

export interface AnalyzerOptions {
  vertical: string;
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
      const language = detectLanguage(parsed.flatMap((s) => s.tokens.map((t) => t.normal)), input.language, lex);
      if (language !== 'en') {
        // Our lexicons are English: other languages keep their sentence offsets but get no aspects,
        // and their sentiment is the star rating's.
        const sentences = parsed.map((s) => ({ start: s.start, end: s.end, score: 0, aspects: [] }));
        return assemble(mentions, language, fromRating, null, sentences, [], [], []);
      }

      const e = analyzeEnglish(parsed, text, lex);
      const sentiment = e.textSentiment === null ? fromRating : round((e.textSentiment + ratingScore(input.rating)) / 2, 3);
      return assemble(mentions, language, sentiment, e.textSentiment, e.sentences, e.aspects, e.problems, e.phrases);
    },
    aspectPolarity(text, aspect) {
      const e = analyzeEnglish(parseText(text), text, lex);
      const found = e.aspects.find((a) => a.id === aspect);
      if (found) return found.polarity;
      return e.textSentiment === null ? 'neutral' : polarityOfScore(e.textSentiment);
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
  /** Text-only sentiment, null when no sentence carries an opinion word. */
  textSentiment: number | null;
  sentences: SentenceAnalysis[];
  aspects: ReviewAspect[];
  problems: string[];
  phrases: string[];
}

/** Runs sentence ABSA, problem and phrase extraction over English text. */
function analyzeEnglish(parsed: ParsedSentence[], text: string, lex: Lexicon): EnglishResult {
  // A typo of a lexicon word is matched as that word ("magnificant" → "magnificent").
  for (const s of parsed) {
    for (const t of s.tokens) {
      if (!t.oov || isInflectionOfKnown(t.normal)) continue;
      const fixed = lex.spelling.fix(t.normal);
      if (fixed !== null) t.lemma = fixed;
    }
  }
  const results = parsed.map((s) => analyzeSentence(s.tokens, text, lex));
  const sentences: SentenceAnalysis[] = parsed.map((s, i) => ({
    start: s.start,
    end: s.end,
    score: round(normalize(results[i].raw), 2),
    aspects: results[i].aspects.map((a): AspectMention => ({
      id: a.aspect,
      polarity: a.conflict ? 'conflict' : polarityOf(a.raw),
      score: round(normalize(a.raw), 2),
    })),
  }));

  const hasOpinion = results.some((r) => r.hasOpinion);
  const totalRaw = results.reduce((sum, r) => sum + r.raw, 0);

  const problems = new Set<string>();
  const phrases = new Set<string>();
  for (const s of parsed) {
    for (const m of lex.problemMatcher.matchAll(s.tokens)) problems.add(m.value);
    keyPhrases(s.tokens, lex, phrases);
  }

  return {
    textSentiment: hasOpinion ? round(normalize(totalRaw), 3) : null,
    sentences,
    aspects: reviewAspects(sentences, results.map((r) => r.aspects.map((a) => a.phrase))),
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
  const acc = new Map<string, { sum: number; n: number; pos: boolean; neg: boolean; conflict: boolean; mentions: { s: number; k: number }[] }>();
  sentences.forEach((s, i) => s.aspects.forEach((a, k) => {
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
  }));
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
