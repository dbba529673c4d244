import type { Catalog } from '../catalog/index.js';
import type { AspectInsight, EntityInsight } from '../domain/index.js';
import { foldText } from '../domain/index.js';
import { type EntityKind, KIND, type ProfileOf } from './entity-kinds.js';

/** A name the caller gave that matches nothing: the message lists what would have matched. */
export class UnknownName extends Error {}

/** How many choices an error message spells out before it summarises the rest. */
const MAX_LISTED = 40;

const listChoices = (items: string[]) =>
  items.length <= MAX_LISTED ? items.join(', ') : `${items.slice(0, MAX_LISTED).join(', ')} and ${items.length - MAX_LISTED} more`;

/** Labels are matched loosely ("Technical knowledge" finds `technical_knowledge`). */
const loose = (s: string) =>
  foldText(s)
    .trim()
    .replace(/[\s_-]+/g, ' ');

export function findAspect(catalog: Catalog, value: string): AspectInsight {
  const wanted = loose(value);
  const found = catalog.insights.aspects.find((a) => loose(a.id) === wanted || loose(a.label) === wanted);
  if (found) return found;
  const ids = catalog.insights.aspects.map((a) => a.id);
  throw new UnknownName(
    ids.length === 0
      ? `Unknown aspect "${value}": this business has no analysed aspects yet.`
      : `Unknown aspect "${value}". Valid aspect ids (labels work too): ${listChoices(ids)}.`,
  );
}

/** A technician or service of the business profile (by id, name or alias) with its insight entry. */
export function findEntity<K extends EntityKind>(
  catalog: Catalog,
  kind: K,
  value: string,
): { profile: ProfileOf<K>; stats: EntityInsight } {
  const profiles: readonly ProfileOf<K>[] = KIND[kind].profiles(catalog);
  const id = KIND[kind].matcher(catalog).resolve(value);
  const profile = id === null ? undefined : profiles.find((p) => p.id === id);
  if (profile) return { profile, stats: entityStats(catalog, kind, profile) };
  const choices = profiles.map((p) => (p.name === p.id ? p.id : `${p.id} (${p.name})`));
  throw new UnknownName(
    choices.length === 0
      ? `Unknown ${kind} "${value}": this business lists no ${kind}s.`
      : `Unknown ${kind} "${value}". Give an id, name or alias of one of: ${listChoices(choices)}.`,
  );
}

/** The insight entry of a profile entity; the engine lists every one, so the zero entry is only a fallback for a stale snapshot. */
export function entityStats(catalog: Catalog, kind: EntityKind, profile: { id: string; name: string }): EntityInsight {
  return (
    KIND[kind].stats(catalog).find((e) => e.id === profile.id) ?? {
      id: profile.id,
      name: profile.name,
      review_count: 0,
      avg_rating: null,
      positive_pct: 0,
      top_aspects: [],
      example_review_ids: [],
    }
  );
}

/** Completion candidates: ids whose id, name or alias starts with (or contains) what was typed. */
export function completeNames(
  items: readonly { id: string; name?: string; label?: string; aliases?: readonly string[] }[],
  typed: string,
): string[] {
  const t = loose(typed);
  const terms = (i: (typeof items)[number]) => [i.id, i.name ?? '', i.label ?? '', ...(i.aliases ?? [])].map(loose);
  const prefix = items.filter((i) => terms(i).some((s) => s.startsWith(t)));
  const rest = items.filter((i) => !prefix.includes(i) && terms(i).some((s) => s.includes(t)));
  return [...prefix, ...rest].map((i) => i.id).slice(0, 100);
}
