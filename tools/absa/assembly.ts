// A new labelled set from writers' batch files, by the rule every held-out set and training addition since
// fresh.xml was assembled by (data/absa/README.md): each batch is checked whole, and a sentence sharing half its
// words with any sentence of the project, or with one kept before it in the new set, is left out unread.
import { nearTwins } from './near-twins.js';
import type { GoldSentence } from './semeval.js';
import { sentenceFaults } from './sentence-faults.js';

export interface Batch {
  /** The batch's name, which prefixes each of its ids (`hss-a` → `hss-a-001`, …). */
  name: string;
  sentences: GoldSentence[];
}

export interface Assembled {
  /** The sentences kept, in batch order. */
  kept: GoldSentence[];
  /** Per batch: sentences written and sentences left out as near twins. */
  batches: { name: string; written: number; leftOut: number }[];
}

/**
 * Throws on the first fault in the batches' shape, naming its batch, its sentence and why. Ids must be unique across
 * the batches and new to the project: a set's ids name its sentences in reports and in the near-twin test.
 */
function validate(batches: readonly Batch[], aspects: ReadonlySet<string>, projectIds: ReadonlySet<string>): void {
  const names = new Set<string>();
  const ids = new Set<string>();
  for (const { name, sentences } of batches) {
    if (names.has(name)) throw new Error(`batch ${name}: named twice`);
    names.add(name);
    if (sentences.length === 0) throw new Error(`batch ${name}: no sentences`);
    for (const s of sentences) {
      const where = `batch ${name}, sentence ${s.id}`;
      if (!s.id.startsWith(`${name}-`)) throw new Error(`${where}: its id does not start with "${name}-"`);
      if (ids.has(s.id)) throw new Error(`${where}: the id is used twice`);
      if (projectIds.has(s.id)) throw new Error(`${where}: the id is already used in the project`);
      ids.add(s.id);
      const [fault] = sentenceFaults(s, aspects);
      if (fault !== undefined) throw new Error(`${where}: ${fault}`);
    }
  }
}

/**
 * The batches as one set: validated against the vertical's `aspects` and the project's ids, then each sentence kept
 * unless it is a near twin of a sentence of `project` or of a sentence kept before it. Two joins find every twin
 * (nearTwins indexes each side once), so a set of a few hundred sentences against the whole project takes seconds.
 */
export function assembleSet(batches: readonly Batch[], aspects: ReadonlySet<string>, project: readonly GoldSentence[]): Assembled {
  validate(batches, aspects, new Set(project.map((s) => s.id)));
  // Twins are found by position in the set, so nothing hangs on how the ids read.
  const all = batches.flatMap((b) => b.sentences);
  const written = all.map((s, i) => ({ ...s, id: String(i) }));
  const twinOfProject = new Set(nearTwins(written, project).map((t) => Number(t.id)));
  const earlierTwins = new Map<number, number[]>();
  for (const { id, twin } of nearTwins(written, written)) {
    const [i, j] = [Number(id), Number(twin)];
    if (j >= i) continue;
    const list = earlierTwins.get(i);
    if (list) list.push(j);
    else earlierTwins.set(i, [j]);
  }
  const kept = new Array<boolean>(written.length).fill(false);
  for (let i = 0; i < written.length; i++) kept[i] = !twinOfProject.has(i) && !(earlierTwins.get(i) ?? []).some((j) => kept[j]);
  let at = 0;
  return {
    kept: all.filter((_, i) => kept[i]),
    batches: batches.map(({ name, sentences }) => {
      const from = at;
      at += sentences.length;
      return { name, written: sentences.length, leftOut: kept.slice(from, at).filter((k) => !k).length };
    }),
  };
}
