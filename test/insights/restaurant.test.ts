// Rules of the restaurant vertical that the SemEval-2014 conventions rely on, on our own sentences.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ReviewAnalysisSchema } from '../../src/domain/index.js';
import { createAnalyzer } from '../../src/insights/index.js';

const restaurant = createAnalyzer({ vertical: 'restaurant', technicians: [], services: [], serviceAreas: [] });

function polarities(text: string): Record<string, string> {
  const a = restaurant.analyze({ id: 'x', rating: 3, text, title: null, language: 'en' });
  ReviewAnalysisSchema.parse(a);
  return Object.fromEntries(a.aspects.map((x) => [x.id, x.polarity]));
}

describe('restaurant aspects', () => {
  it('a dish word before a venue noun names the venue, not the food', () => {
    assert.deepEqual(polarities('We ended up in a little noodle shop near the station.'), { 'anecdotes/miscellaneous': 'neutral' });
  });
  it('a weak cue next to another aspect describes that aspect', () => {
    assert.deepEqual(polarities('The soup came out fast and hot.'), { food: 'positive' });
    assert.deepEqual(polarities('Friendly, fast waiters.'), { service: 'positive' });
  });
  it('a price judgement of a dish is about price only', () => {
    assert.deepEqual(polarities('The lobster roll is far too expensive.'), { price: 'negative' });
    assert.deepEqual(polarities('The curry was tasty and cheap.'), { food: 'positive', price: 'positive' });
  });
  it('matches plurals the tagger left unlemmatised', () => {
    assert.equal(polarities('Dumplings were superb.').food, 'positive');
  });
  it('a run of punctuation is not a sentence of its own', () => {
    const a = restaurant.analyze({ id: 'x', rating: 3, text: 'The tacos are amazing!!!!', title: null, language: 'en' });
    assert.equal(a.sentences.length, 1);
    assert.deepEqual(
      a.aspects.map((x) => x.id),
      ['food'],
    );
  });
});

describe('typos', () => {
  it('reads an unknown word as the lexicon word one edit away', () => {
    assert.deepEqual(polarities('The pasta was magnificant.'), { food: 'positive' });
    assert.deepEqual(polarities('Our waitress was very curtious.'), { service: 'positive' });
  });
  it('leaves inflections of known words and ambiguous typos alone', () => {
    // "refilled" is one edit from "refined", "worht" from both "worth" and "worst".
    const a = restaurant.analyze({ id: 'x', rating: 3, text: 'They refilled our glasses twice.', title: null, language: 'en' });
    assert.equal(a.text_sentiment, null);
    assert.equal(polarities('The dessert was worht it.').food, polarities('The dessert was xyzzy it.').food);
  });
});

describe('restaurant polarity rules', () => {
  it('a stated long wait is a service complaint, a wait marked short is praise', () => {
    assert.equal(polarities('We waited 40 minutes for a table.').service, 'negative');
    assert.equal(polarities('It took over an hour to get our check.').service, 'negative');
    assert.equal(polarities('It only took five minutes to get a table.').service, 'positive');
  });
  it('"looks like" compares and is no opinion', () => {
    assert.deepEqual(polarities('The sauce looked like ketchup.'), { food: 'neutral' });
  });
  it('a sentence-initial "while" concedes its clause', () => {
    const p = polarities('While the decor is lovely, the food was awful.');
    assert.equal(p.ambience, 'positive');
    assert.equal(p.food, 'negative');
  });
});

describe('price statements', () => {
  it('a dish priced in the same breath is only the subject of the price', () => {
    assert.deepEqual(Object.keys(polarities('The soup was $12.')), ['price']);
    assert.equal(polarities('Our waitress was sweet.').service, 'positive');
  });
});

describe('restaurant idioms', () => {
  it('"open late" is praise and a late lunch no complaint; a cold beer is good', () => {
    assert.equal(polarities('They are open late.')['anecdotes/miscellaneous'], 'positive');
    assert.deepEqual(polarities('We went for a late lunch.'), { 'anecdotes/miscellaneous': 'neutral' });
    assert.equal(polarities('The beer was ice cold.').food, 'positive');
  });
  it('"not the place to go" is a complaint even after praise in an if-clause', () => {
    assert.equal(polarities('If you want good sushi, this is not the place to go.').food, 'negative');
  });
});

describe('weak terms', () => {
  it('a service event or money word names its aspect only with an opinion', () => {
    assert.deepEqual(polarities('We were seated at eight.'), { 'anecdotes/miscellaneous': 'neutral' });
    assert.equal(polarities('We were seated promptly.').service, 'positive');
    assert.equal(polarities('The bill was outrageous.').price, 'negative');
  });
});

describe('faint praise', () => {
  it('"just ok" is a mild complaint', () => {
    assert.equal(polarities('The food was just OK.').food, 'negative');
  });
});
