// Finds technicians, services and service areas named in a review: whole words, case- and
// accent-insensitive, longest name first so "Mike Johnson" wins over "Mike" when both are known.

export interface Named {
  id: string;
  name: string;
  aliases?: string[];
}

/** Lowercase, accents removed, whitespace collapsed: the form both names and texts are compared in. */
export function fold(s: string): string {
  return s.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase().replace(/\s+/g, ' ');
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export class MentionFinder {
  private readonly pattern: RegExp | null;
  private readonly idOf = new Map<string, string>();

  constructor(items: Named[]) {
    const names: string[] = [];
    for (const item of items) {
      for (const raw of [item.name, ...(item.aliases ?? [])]) {
        const name = fold(raw).trim();
        // A name without a letter or digit ("-") would match everywhere between words.
        if (!/[\p{L}\p{N}]/u.test(name) || this.idOf.has(name)) continue;
        this.idOf.set(name, item.id);
        names.push(name);
      }
    }
    names.sort((a, b) => b.length - a.length);
    this.pattern = names.length === 0 ? null
      : new RegExp(`(?<![\\p{L}\\p{N}])(?:${names.map(escapeRegExp).join('|')})(?![\\p{L}\\p{N}])`, 'gu');
  }

  /** Ids mentioned in the (already folded) text, in order of first mention, without duplicates. */
  find(folded: string): string[] {
    if (!this.pattern) return [];
    const ids: string[] = [];
    for (const match of folded.matchAll(this.pattern)) {
      const id = this.idOf.get(match[0]);
      if (id !== undefined && !ids.includes(id)) ids.push(id);
    }
    return ids;
  }
}
