// English / non-English decision by function-word counts. Reviews are short, so a statistical language
// identifier would add weight for little gain; the engine only needs to know whether its English lexicons
// apply. Other languages are named when their own function words clearly dominate.
import type { Lexicon } from './lexicon.js';

/** Primary tag of a BCP 47 language tag, lowercased (`en-US` → `en`), or null. */
function primaryTag(tag: string | null): string | null {
  const primary = tag?.trim().split(/[-_]/)[0]?.toLowerCase();
  return primary ? primary : null;
}

/**
 * `en`, another primary tag, or `und`. Function-word evidence decides; without any (very short texts such
 * as "Five stars!") the declared language is trusted, and mostly-ASCII text is taken as English.
 */
export function detectLanguage(words: string[], declared: string | null, lex: Lexicon): string {
  const counts = new Map<string, number>();
  for (const w of words) {
    for (const [lang, set] of lex.stopwords) {
      if (set.has(w)) counts.set(lang, (counts.get(lang) ?? 0) + 1);
    }
  }
  const en = counts.get('en') ?? 0;
  let best = 'en';
  let bestCount = en;
  for (const [lang, count] of counts) {
    if (count > bestCount) {
      best = lang;
      bestCount = count;
    }
  }
  // English needs to lose clearly: loanwords and names ("el", "de") appear in English reviews too.
  if (best !== 'en' && bestCount >= 2 && bestCount > en * 1.5) return best;
  if (en > 0) return 'en';
  const hint = primaryTag(declared);
  if (hint) return hint;
  const letters = words.join('');
  const ascii = letters.replace(/[^\x00-\x7f]/g, '').length;
  return letters.length > 0 && ascii / letters.length >= 0.9 ? 'en' : 'und';
}
