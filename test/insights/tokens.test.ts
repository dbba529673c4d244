// The same text gives the same tokens whatever the process read before it: wink learns words as it reads, and a
// possessive read before punctuation once came back whole from then on, so analyses (and trained weights)
// depended on what had been analysed earlier. On the same path a contraction written without its apostrophe
// ("wasnt.") came back whole and without a lemma, and the analysis threw.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sentenceEvidence } from '../../src/insights/index.js';

const tokens = (text: string) => sentenceEvidence('home_services', text).tokens.map((t) => `${t.normal}@${t.start}`);

describe('tokens', () => {
  it('do not depend on what was read before', () => {
    // A made-up name, so that nothing read earlier in this process taught it to wink.
    const text = "Quendrick's crew fixed the leak. The van was Quendrick's.";
    const before = tokens(text);
    assert.deepEqual(before.slice(0, 2), ['quendrick@0', "'s@9"]);
    tokens("We hired Quendrick's, twice. Then Quendrick's! (Quendrick's)");
    assert.deepEqual(tokens(text), before);
  });
  it('expand a contraction written without its apostrophe before punctuation', () => {
    const normals = (text: string) => sentenceEvidence('home_services', text).tokens.map((t) => t.normal);
    assert.deepEqual(normals('They cannot.'), ['they', 'can', 'not', '.']);
    assert.deepEqual(normals('It wasnt, really. I dont…'), ['it', 'was', 'not', ',', 'really', '.', 'i', 'do', 'not', '…']);
    // Abbreviations keep their full stop.
    assert.deepEqual(normals('Dr. Lee came at 8 a.m. today.'), ['dr.', 'lee', 'came', 'at', '8', 'a.m.', 'today', '.']);
  });
  it('keep the offsets of the text as written', () => {
    const text = "Ask for Dana's. She is great.";
    const evidence = sentenceEvidence('home_services', text);
    for (const t of evidence.tokens) assert.equal(text.slice(t.start, t.end).toLowerCase(), t.normal);
  });
});
