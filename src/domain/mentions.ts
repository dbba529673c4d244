/**
 * Finds mentions of named things (technicians, services, areas) in free text: whole words only,
 * case- and accent-insensitive. Pure, built once per business profile and reused for every review.
 */
export interface Nameable {
  id: string;
  name: string;
  aliases?: readonly string[];
}

export function foldText(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export interface MentionMatcher {
  /** Ids mentioned in `text`, in the order of the named list, without duplicates. */
  find(text: string | null): string[];
  /** As `find`, for text already passed through `foldText` (lets a caller fold once for several matchers). */
  findFolded(folded: string): string[];
  /** Resolve an explicit value (id, name or alias, any case/accents) to an id, or null. */
  resolve(value: string): string | null;
}

export function createMentionMatcher(items: readonly Nameable[]): MentionMatcher {
  const byTerm = new Map<string, string>();
  for (const item of items) {
    for (const term of [item.id, item.name, ...(item.aliases ?? [])]) {
      const t = foldText(term).trim();
      if (t && !byTerm.has(t)) byTerm.set(t, item.id);
    }
  }
  const order = new Map(items.map((item, i) => [item.id, i]));
  // Longest terms first so "Mike Jones" wins over "Mike"; \p{L}\p{N} lookarounds make word boundaries Unicode-aware.
  const terms = [...byTerm.keys()].filter((t) => t.length > 1).sort((a, b) => b.length - a.length);
  const re = terms.length ? new RegExp(`(?<![\\p{L}\\p{N}])(?:${terms.map(escapeRegExp).join('|')})(?![\\p{L}\\p{N}])`, 'gu') : null;
  const findFolded = (folded: string): string[] => {
    if (!re || !folded) return [];
    const found = new Set<string>();
    for (const m of folded.matchAll(re)) found.add(byTerm.get(m[0])!);
    return [...found].sort((a, b) => order.get(a)! - order.get(b)!);
  };
  return {
    find(text) {
      return text ? findFolded(foldText(text)) : [];
    },
    findFolded,
    resolve(value) {
      return byTerm.get(foldText(value).trim()) ?? null;
    },
  };
}
