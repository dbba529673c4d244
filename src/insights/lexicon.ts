// Loads the shared English lexicon and a vertical's taxonomy (JSON files in ./taxonomies), validates them,
// and compiles them into token matchers. Compiled lexicons are cached per vertical.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { VerticalSchema } from '../domain/index.js';
import { tokenizePhrase } from './nlp.js';
import { PhraseMatcher } from './phrase-matcher.js';
import { SpellFixer } from './spelling.js';

const ScoreMap = z.record(z.string(), z.number().min(-3).max(3));

const EnglishFile = z.object({
  opinion: ScoreMap,
  phrases: ScoreMap,
  intensifiers: z.record(z.string(), z.number().positive()),
  diminishers: z.record(z.string(), z.number().positive()),
  negators: z.array(z.string()),
  excess: z.array(z.string()),
  contrast_after: z.array(z.string()),
  concessive: z.array(z.string()),
  counterfactual: z.array(z.string()),
  stopwords: z.record(z.string(), z.array(z.string())),
  generic_nouns: z.array(z.string()),
});

const TaxonomyFile = z.object({
  vertical: z.string(),
  label: z.string(),
  version: z.number().int().positive(),
  default_aspect: z.string().nullable(),
  aspects: z
    .array(
      z.object({
        id: z.string(),
        label: z.string(),
        terms: z.array(z.string()),
        cues: ScoreMap,
        /** Terms that name the aspect only when an opinion attaches to them ("we made a reservation" is no service). */
        weak_terms: z.array(z.string()).default([]),
        /** Cues that name the aspect only when no other aspect's term is close by ("fast" service, "fast" food prep). */
        weak_cues: z.array(z.string()).default([]),
        /**
         * Aspects whose terms this aspect's terms and cues absorb: "the pizza is too expensive" and "$12 for the
         * soup" are about price, not food, so restaurant `price` absorbs `food`.
         */
        absorbs: z.array(z.string()).default([]),
      }),
    )
    .min(1),
  problems: z.array(z.object({ id: z.string(), label: z.string(), patterns: z.array(z.string()).min(1) })),
  opinion: ScoreMap,
  /** Nouns that turn an aspect term before them into a mere modifier: "sushi restaurant", "pizza place". */
  modifier_heads: z.array(z.string()).default([]),
  /** The aspect a stated wait ("we waited 40 minutes") is an opinion on, or null. */
  wait_aspect: z.string().nullable().default(null),
});
type TaxonomyFile = z.infer<typeof TaxonomyFile>;

/** What a lexicon entry says about the words it matched. */
export interface LexValue {
  /** Aspect the words signal, or null for a general opinion word. */
  aspect: string | null;
  /** Opinion strength -3..3, or null when the words only name an aspect. */
  score: number | null;
  /** Listed as a cue of its aspect: an opinion word that also names the aspect ("delicious"). */
  cue: boolean;
  /** A cue that yields to a nearby term of another aspect, or a term that needs an opinion to count. */
  weak: boolean;
}

export interface Lexicon {
  vertical: string;
  version: number;
  defaultAspect: string | null;
  aspects: { id: string; label: string }[];
  problems: { id: string; label: string }[];
  entries: PhraseMatcher<LexValue>;
  problemMatcher: PhraseMatcher<string>;
  intensifiers: Map<string, number>;
  negators: Set<string>;
  excess: Set<string>;
  contrastAfter: Set<string>;
  concessive: Set<string>;
  counterfactual: Set<string>;
  stopwords: Map<string, Set<string>>;
  genericNouns: Set<string>;
  modifierHeads: Set<string>;
  /** Aspect → the aspects whose terms its terms and cues absorb (see `absorbs`). */
  absorbing: Map<string, Set<string>>;
  waitAspect: string | null;
  /** Reads unknown words as the one-word lexicon entry they are a typo of. */
  spelling: SpellFixer;
}

export const VERTICALS = VerticalSchema.options;
const FALLBACK_VERTICAL = 'local_business';

function readJson(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`./taxonomies/${name}.json`, import.meta.url), 'utf8'));
}

const cache = new Map<string, Lexicon>();
const labelsCache = new Map<string, TaxonomyLabels>();

/** What the corpus insights read of a lexicon: the taxonomy's aspects and problems, and its name and version. */
export type TaxonomyLabels = Pick<Lexicon, 'vertical' | 'version' | 'aspects' | 'problems'>;

/**
 * loadLexicon's aspects, problems, vertical and version, without compiling the lexicon (a tenth of a
 * second that a thread building only insights would spend before its first row). The taxonomy is
 * checked when a lexicon of it is compiled, as every analysis does.
 */
export function loadTaxonomyLabels(vertical: string): TaxonomyLabels {
  const name = (VERTICALS as readonly string[]).includes(vertical) ? vertical : FALLBACK_VERTICAL;
  let labels = cache.get(name) ?? labelsCache.get(name);
  if (!labels) {
    labels = labelsOf(TaxonomyFile.parse(readJson(name)));
    labelsCache.set(name, labels);
  }
  return labels;
}

const labelsOf = (taxonomy: TaxonomyFile): TaxonomyLabels => ({
  vertical: taxonomy.vertical,
  version: taxonomy.version,
  aspects: taxonomy.aspects.map(({ id, label }) => ({ id, label })),
  problems: taxonomy.problems.map(({ id, label }) => ({ id, label })),
});

/** The compiled lexicon of a vertical; an unknown vertical gets the generic local-business taxonomy. */
export function loadLexicon(vertical: string): Lexicon {
  const name = (VERTICALS as readonly string[]).includes(vertical) ? vertical : FALLBACK_VERTICAL;
  let lexicon = cache.get(name);
  if (!lexicon) {
    lexicon = compile(EnglishFile.parse(readJson('english')), TaxonomyFile.parse(readJson(name)));
    cache.set(name, lexicon);
  }
  return lexicon;
}

function compile(english: z.infer<typeof EnglishFile>, taxonomy: TaxonomyFile): Lexicon {
  const aspectIds = new Set(taxonomy.aspects.map((a) => a.id));
  if (taxonomy.wait_aspect !== null && !aspectIds.has(taxonomy.wait_aspect)) {
    throw new Error(`taxonomy ${taxonomy.vertical}: wait_aspect ${taxonomy.wait_aspect} is not an aspect`);
  }
  if (taxonomy.default_aspect !== null && !aspectIds.has(taxonomy.default_aspect)) {
    throw new Error(`taxonomy ${taxonomy.vertical}: default_aspect ${taxonomy.default_aspect} is not an aspect`);
  }
  // Layered from general to specific, so a vertical's reading of a word wins over the general lexicon.
  const entries = new PhraseMatcher<LexValue>();
  const singleWords = new Set<string>();
  const put = (phrase: string, aspect: string | null, score: number | null, cue = false, weak = false): void => {
    const words = tokenizePhrase(phrase);
    if (words.length === 1) singleWords.add(words[0]);
    const previous = entries.get(words);
    entries.add(words, {
      aspect: aspect ?? previous?.aspect ?? null,
      score: score ?? previous?.score ?? null,
      cue,
      weak,
    });
  };
  for (const [w, s] of Object.entries(english.opinion)) put(w, null, s);
  for (const [w, s] of Object.entries(english.phrases)) put(w, null, s);
  for (const [w, s] of Object.entries(taxonomy.opinion)) put(w, null, s);
  const owner = new Map<string, string>();
  for (const aspect of taxonomy.aspects) {
    for (const term of [...aspect.terms, ...Object.keys(aspect.cues)]) {
      const key = tokenizePhrase(term).join(' ');
      const other = owner.get(key);
      if (other && other !== aspect.id) {
        throw new Error(`taxonomy ${taxonomy.vertical}: "${term}" belongs to both ${other} and ${aspect.id}`);
      }
      owner.set(key, aspect.id);
    }
    for (const other of aspect.absorbs) {
      if (!aspectIds.has(other) || other === aspect.id)
        throw new Error(`taxonomy ${taxonomy.vertical}: ${aspect.id} cannot absorb ${other}`);
    }
    const weakTerms = new Set(aspect.weak_terms);
    for (const w of weakTerms) {
      if (!aspect.terms.includes(w)) throw new Error(`taxonomy ${taxonomy.vertical}: weak term "${w}" is not a term of ${aspect.id}`);
    }
    for (const term of aspect.terms) put(term, aspect.id, null, false, weakTerms.has(term));
    const weak = new Set(aspect.weak_cues);
    for (const w of weak) {
      if (!(w in aspect.cues)) throw new Error(`taxonomy ${taxonomy.vertical}: weak cue "${w}" is not a cue of ${aspect.id}`);
    }
    for (const [cue, s] of Object.entries(aspect.cues)) put(cue, aspect.id, s, true, weak.has(cue));
  }

  const problemMatcher = new PhraseMatcher<string>();
  for (const problem of taxonomy.problems) {
    for (const pattern of problem.patterns) problemMatcher.add(tokenizePhrase(pattern), problem.id);
  }

  const intensifiers = new Map<string, number>(Object.entries(english.intensifiers));
  for (const [w, m] of Object.entries(english.diminishers)) intensifiers.set(w, m);

  return {
    ...labelsOf(taxonomy),
    defaultAspect: taxonomy.default_aspect,
    entries,
    problemMatcher,
    intensifiers,
    negators: new Set(english.negators),
    excess: new Set(english.excess),
    contrastAfter: new Set(english.contrast_after),
    concessive: new Set(english.concessive),
    counterfactual: new Set(english.counterfactual),
    stopwords: new Map(Object.entries(english.stopwords).map(([lang, words]) => [lang, new Set(words)])),
    genericNouns: new Set(english.generic_nouns),
    modifierHeads: new Set(taxonomy.modifier_heads),
    absorbing: new Map(taxonomy.aspects.filter((a) => a.absorbs.length > 0).map((a) => [a.id, new Set(a.absorbs)])),
    spelling: new SpellFixer(singleWords),
    waitAspect: taxonomy.wait_aspect,
  };
}
