// A stored analysis read for a corpus. Its sentences are about half its bytes and most of its objects,
// and a corpus reads only the span of each sentence an aspect quotes: a full build at 100k demo reviews
// parses 76 MB of analyses on the corpus thread, which its other threads wait for.
import type { CorpusAnalysis } from '../../domain/index.js';

// JSON.stringify wrote the analysis with its keys in the schema's order (domain/insights.ts): the sentences
// come before the review's aspects, and a sentence's own aspects follow its score (a number), so
// `],"aspects":[` after the list's start is where the list ends, and `{"start":` begins each sentence (no
// other object of an analysis has a key `start`; a quote inside a string is escaped). A test holds these
// shapes to the schema.
const LIST = ',"sentences":[';
const AFTER = '],"aspects":[';
const SENTENCE = '{"start":';
/** A sentence's span at its start. */
const SPAN = /\{"start":(\d+),"end":(\d+),/y;

/**
 * What a corpus reads of an analysis's stored JSON: the analysis parsed without its sentences, and the
 * spans of the sentences up to the last its aspects quote read off the text. JSON not laid out so is
 * parsed whole.
 */
export function readStoredAnalysis(json: string): CorpusAnalysis {
  return withoutSentences(json) ?? (JSON.parse(json) as CorpusAnalysis);
}

/** The analysis read so, or null when its JSON is not laid out as the reader expects. */
function withoutSentences(json: string): CorpusAnalysis | null {
  const open = json.indexOf(LIST);
  const close = open < 0 ? -1 : json.indexOf(AFTER, open);
  if (close < 0) return null;
  let analysis: CorpusAnalysis;
  try {
    analysis = JSON.parse(json.slice(0, open) + json.slice(close + 1)) as CorpusAnalysis;
  } catch {
    return null;
  }
  const spans = spansUpTo(json, open + LIST.length, close, analysis);
  if (!spans) return null;
  analysis.sentences = spans;
  return analysis;
}

/**
 * The spans of the sentences up to the last one the aspects quote, reading the list from `from` to `to`;
 * null when a sentence there does not start as one.
 */
function spansUpTo(json: string, from: number, to: number, analysis: CorpusAnalysis): CorpusAnalysis['sentences'] | null {
  let last = -1;
  for (const a of analysis.aspects) if (a.sentence > last) last = a.sentence;
  const spans: { start: number; end: number }[] = [];
  let at = from;
  // An empty list ends where it starts; an aspect pointing past the last sentence quotes none (as when parsed whole).
  for (let k = 0; k <= last && at < to; k++) {
    SPAN.lastIndex = at;
    const m = SPAN.exec(json);
    if (!m) return null;
    spans.push({ start: Number(m[1]), end: Number(m[2]) });
    const next = json.indexOf(SENTENCE, SPAN.lastIndex);
    at = next < 0 ? to : next;
  }
  return spans;
}
