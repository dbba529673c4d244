// Unit tests of the per-review analysis: negation, contrast, intensifiers, rating-only and non-English
// reviews, entity mentions, problems, sentence offsets.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ReviewAnalysisSchema } from '../../src/domain/index.js';
import { createAnalyzer, ENGINE_VERSION } from '../../src/insights/index.js';

const home = createAnalyzer({
  vertical: 'home_services',
  technicians: [
    { id: 'tech-mike', name: 'Mike Johnson', aliases: ['Mike'] },
    { id: 'tech-jose', name: 'José Pérez', aliases: ['Pepe'] },
  ],
  services: [{ id: 'svc-drain', name: 'Drain cleaning', aliases: ['drain service'] }],
  serviceAreas: [{ id: 'area-sf', name: 'Springfield' }],
});

/** An analysis of `text` by another vertical's analyzer (no technicians or services). */
const of = (vertical: string, text: string) =>
  createAnalyzer({ vertical, technicians: [], services: [], serviceAreas: [] }).analyze({
    id: 'x',
    rating: 3,
    text,
    title: null,
    language: 'en',
  });

function analyze(text: string | null, rating = 3, language: string | null = null) {
  const a = home.analyze({ id: 'r1', rating, text, title: null, language });
  ReviewAnalysisSchema.parse(a);
  return a;
}

function aspect(a: ReturnType<typeof analyze>, id: string) {
  return a.aspects.find((x) => x.id === id);
}

describe('negation', () => {
  it('flips praise: "not friendly" is negative friendliness', () => {
    const a = analyze('The technician was not friendly at all.');
    assert.equal(aspect(a, 'friendliness')?.polarity, 'negative');
    assert.ok((a.text_sentiment ?? 0) < 0);
  });
  it('flips complaints: "not expensive" is positive pricing', () => {
    assert.equal(aspect(analyze('The price was not expensive.'), 'pricing')?.polarity, 'positive');
  });
  it('handles contractions: "wasn\'t professional"', () => {
    assert.equal(aspect(analyze("He wasn't professional."), 'professionalism')?.polarity, 'negative');
  });
  it('keeps "not only … but" positive', () => {
    assert.equal(aspect(analyze('Not only was he professional, he was also friendly.'), 'professionalism')?.polarity, 'positive');
  });
  it('negates only the first opinion after the negator: "did not fix the problem"', () => {
    assert.equal(aspect(analyze('They did not fix the problem.'), 'workmanship')?.polarity, 'negative');
  });
  it('reads "could not be happier" as praise', () => {
    assert.ok((analyze('We could not be happier with the repair.').text_sentiment ?? 0) > 0);
  });
});

describe('contrast', () => {
  it('scopes "late but fixed the leak fast" per clause', () => {
    const a = analyze('He was late but fixed the leak fast.');
    assert.equal(aspect(a, 'punctuality')?.polarity, 'negative');
    assert.equal(aspect(a, 'workmanship')?.polarity, 'positive');
  });
  it('keeps opposite opinions on separate aspects across "however"', () => {
    const a = analyze('The pricing was fair; however, the communication was terrible.');
    assert.equal(aspect(a, 'pricing')?.polarity, 'positive');
    assert.equal(aspect(a, 'communication')?.polarity, 'negative');
  });
  it('weights the clause after "but" more than the one before it', () => {
    // The lexicon's own rule, read where it decides (no model names an aspect: local_business has none).
    const sentiment = (text: string) => of('local_business', text).text_sentiment ?? 0;
    assert.ok(sentiment('It was good but awful.') < 0);
    assert.ok(sentiment('It was awful but good.') > 0);
  });
  // The models read "it" as the work, an aspect the lexicon did not name, so over the whole sentence with the
  // conceded side's words marked. The engines have read this pair four ways: 2.7.0 both negative, 2.8.0 both
  // positive, 2.9.0 to 2.11.0 both negative ("awful but good" at -0.05 to -0.12), 2.12.0 and 2.13.0 both right. Engines are
  // chosen by a rule fixed before their scoring on a held-out set, not on these sentences.
  it('home services: "good but awful" is negative', () => {
    assert.ok((analyze('It was good but awful.').text_sentiment ?? 0) < 0);
  });
  it('home services: "awful but good" is positive', () => {
    assert.ok((analyze('It was awful but good.').text_sentiment ?? 0) > 0);
  });
  it('marks an aspect praised in one sentence and criticised in another as conflict', () => {
    const a = analyze('The communication was excellent at first. Later the communication was terrible.');
    assert.equal(aspect(a, 'communication')?.polarity, 'conflict');
  });
});

describe('contractions without their apostrophe', () => {
  it('are read as negations, and do not make the analysis throw before punctuation', () => {
    // The analysis of these used to throw (wink gave the whole word no lemma), failing the import that held them.
    assert.equal(aspect(analyze('The tech didnt clean up, and the price wasnt fair.'), 'pricing')?.polarity, 'negative');
    assert.doesNotThrow(() => analyze('They cannot. It wasnt! I dont…'));
  });
});

describe('reported opinions', () => {
  it("ignores praise of other people's reviews", () => {
    assert.equal(analyze('We picked them because of the great reviews online.').text_sentiment, null);
  });
});

describe('intensifiers', () => {
  it('"very" strengthens and "slightly" weakens', () => {
    const plain = analyze('The work was good.').text_sentiment ?? 0;
    const very = analyze('The work was very good.').text_sentiment ?? 0;
    const slightly = analyze('The work was slightly good.').text_sentiment ?? 0;
    assert.ok(very > plain, `${very} > ${plain}`);
    assert.ok(slightly < plain, `${slightly} < ${plain}`);
  });
  it('"too" turns an unscored adjective into a complaint', () => {
    assert.equal(aspect(analyze('The quote was too high.'), 'pricing')?.polarity, 'negative');
  });
});

describe('rating-only reviews', () => {
  it('take their sentiment from the stars and have no text analysis', () => {
    for (const [rating, expected] of [
      [1, -1],
      [3, 0],
      [5, 1],
    ] as const) {
      const a = analyze(null, rating);
      assert.equal(a.sentiment, expected);
      assert.equal(a.text_sentiment, null);
      assert.equal(a.language, null);
      assert.deepEqual(a.sentences, []);
      assert.deepEqual(a.aspects, []);
    }
  });
  it('treat whitespace-only text as no text', () => {
    assert.deepEqual(analyze('   \n ', 4).sentences, []);
  });
});

describe('non-English text', () => {
  it('is marked with its language, keeps sentences, gets no English aspects, takes the rating sentiment', () => {
    const a = analyze('El técnico llegó tarde pero el trabajo fue excelente. Muy profesional y limpio.', 5);
    assert.equal(a.language, 'es');
    assert.deepEqual(a.aspects, []);
    assert.ok(a.sentences.length >= 1);
    assert.equal(a.sentiment, 1);
    assert.equal(a.text_sentiment, null);
  });
  it('detects French and German', () => {
    assert.equal(analyze("Le plombier est arrivé à l'heure et le travail était très bien fait.").language, 'fr');
    assert.equal(analyze('Der Techniker war sehr freundlich und die Arbeit ist gut.').language, 'de');
  });
  it('does not crash on scripts without spaces or on emoji', () => {
    for (const text of ['配管工はとても親切でした。', 'Отличная работа!', '👍👍👍', '…', '!!!']) {
      const a = analyze(text, 4);
      assert.ok(a.sentiment >= -1 && a.sentiment <= 1);
    }
  });
  it('does not mistake English for a language sharing short words with it ("as", "die", "met")', () => {
    assert.equal(analyze('People came in suits as well as jeans.').language, 'en');
    assert.equal(analyze('The cake was to die for and we met the owner.').language, 'en');
  });
  it('treats short English text without function words as English', () => {
    assert.equal(analyze('Great job!').language, 'en');
  });
});

describe('entities and problems', () => {
  it('finds technicians by name or alias, case- and accent-insensitively, on word boundaries', () => {
    assert.deepEqual(analyze('mike fixed it and JOSE PEREZ helped').technicians, ['tech-mike', 'tech-jose']);
    assert.deepEqual(analyze('Mikey and Pepperoni were not here').technicians, []);
  });
  it('finds services and areas', () => {
    const a = analyze('Booked the drain service for our house in Springfield.');
    assert.deepEqual(a.services, ['svc-drain']);
    assert.deepEqual(a.service_areas, ['area-sf']);
  });
  it('detects home-service problems', () => {
    const a = analyze('We had a leaking faucet, a clogged drain and no hot water.');
    assert.deepEqual([...a.problems].sort(), ['clogged_drain', 'leak', 'no_hot_water']);
  });
});

describe('shape', () => {
  it('gives sentence offsets that slice the text', () => {
    const text = '  First sentence here.  Second one, with Mike!\nThird?';
    const a = analyze(text);
    assert.deepEqual(
      a.sentences.map((s) => text.slice(s.start, s.end)),
      ['First sentence here.', 'Second one, with Mike!', 'Third?'],
    );
  });
  it('stamps the engine version and stays compact', () => {
    const a = analyze('The plumber was on time, friendly and fixed the leak quickly. Fair price too.');
    assert.equal(a.engine, ENGINE_VERSION);
    assert.ok(JSON.stringify(a).length < 1200, `${JSON.stringify(a).length} bytes`);
  });
  it('is deterministic', () => {
    const text = 'Rude on the phone but the repair itself was solid.';
    assert.deepEqual(analyze(text), analyze(text));
  });
  it('falls back to the generic taxonomy for an unknown vertical', () => {
    const generic = createAnalyzer({ vertical: 'spaceships', technicians: [], services: [], serviceAreas: [] });
    const a = generic.analyze({ id: 'x', rating: 5, text: 'The staff were friendly and the prices fair.', title: null, language: 'en' });
    assert.deepEqual(a.aspects.map((x) => x.id).sort(), ['pricing', 'staff']);
  });
});

describe('other verticals', () => {
  const polarities = (a: ReturnType<typeof of>) => Object.fromEntries(a.aspects.map((x) => [x.id, x.polarity]));

  it('restaurant: food and service scored separately across "but"', () => {
    assert.deepEqual(polarities(of('restaurant', 'The pasta was bland but the waiter was lovely.')), {
      food: 'negative',
      service: 'positive',
    });
  });
  it('restaurant: a sentence without a named aspect falls back to anecdotes/miscellaneous', () => {
    assert.deepEqual(polarities(of('restaurant', 'We will definitely come back!')), { 'anecdotes/miscellaneous': 'positive' });
  });
  it('senior living: care, dining, safety and staffing problems', () => {
    // Nurses and aides as people are `staff` in the labelling guidelines (data/absa/GUIDELINES.md); being
    // attentive is also care quality there.
    const p = polarities(of('senior_living', 'The nurses are attentive and the food is delicious.'));
    assert.equal(p.staff, 'positive');
    assert.equal(p.dining, 'positive');
    assert.ok(Object.values(p).every((x) => x === 'positive'));
    const a = of('senior_living', 'Mom fell twice; the place is understaffed.');
    assert.equal(polarities(a).safety, 'negative');
    assert.deepEqual([...a.problems].sort(), ['falls', 'understaffing']);
  });
  // 2.8.0's category model named safety alone here; 2.6.0, 2.7.0 and 2.9.0 to 2.13.0 name staff too.
  it('senior living: "understaffed" is a staff complaint', () => {
    assert.equal(polarities(of('senior_living', 'Mom fell twice; the place is understaffed.')).staff, 'negative');
  });
  it('local business: staff, pricing and billing problems', () => {
    assert.deepEqual(polarities(of('local_business', 'Friendly staff and fair prices.')), { staff: 'positive', pricing: 'positive' });
    assert.ok(of('local_business', 'They overcharged me and refused a refund.').problems.includes('billing_error'));
  });
});

// The trained models (src/insights/model/) on sentences written for these tests, in no labelled set.
describe('implicit evaluation', () => {
  const polarities = (text: string, vertical = 'home_services') => {
    const a =
      vertical === 'home_services'
        ? analyze(text)
        : createAnalyzer({ vertical, technicians: [], services: [], serviceAreas: [] }).analyze({
            id: 'x',
            rating: 3,
            text,
            title: null,
            language: null,
          });
    return Object.fromEntries(a.aspects.map((x) => [x.id, x.polarity]));
  };
  it('reads a delay in calling back as a communication complaint', () => {
    assert.deepEqual(polarities('It took them four days to call me back.'), { communication: 'negative' });
    assert.equal(polarities('Nobody returned my calls for a week.').communication, 'negative');
  });
  it('reads repeat visits for the same fault as a workmanship complaint', () => {
    assert.equal(polarities('They had to come back three times for the same leak.').workmanship, 'negative');
  });
  it('reads extra and doubled charges as pricing complaints', () => {
    assert.equal(polarities('They charged me extra for parts that were never installed.').pricing, 'negative');
    assert.deepEqual(polarities('The bill was twice the quote.'), { pricing: 'negative' });
  });
  it('reads a late-night holiday visit as responsiveness praise', () => {
    assert.deepEqual(polarities('Came out at 11pm on a holiday.'), { responsiveness: 'positive' });
  });
  it('reads mess left behind and a job done right the first time', () => {
    assert.deepEqual(polarities('Left mud all over the carpet.'), { cleanliness: 'negative' });
    assert.deepEqual(polarities('Fixed it right the first time.'), { workmanship: 'positive' });
  });
  it('senior living: falls, unanswered call buttons and unannounced rate increases', () => {
    assert.equal(polarities('Mom fell twice last month and nobody noticed.', 'senior_living').safety, 'negative');
    assert.deepEqual(polarities('The call button went unanswered for forty minutes.', 'senior_living'), { safety: 'negative' });
    assert.equal(polarities('Nobody told us about the rate increase until the bill came.', 'senior_living').value, 'negative');
  });
  it('an implicit complaint makes the text sentiment negative', () => {
    assert.ok((analyze('It took them four days to call me back.').text_sentiment ?? 0) < 0);
    assert.ok((analyze('They had to come back three times for the same leak.').text_sentiment ?? 0) < 0);
  });
});

describe('narrative and overall-verdict sentences', () => {
  it('carry no aspect', () => {
    for (const text of [
      'We called them about a sewer backup.',
      'Hired them for emergency plumbing at our house.',
      'Our water heater is 12 years old.',
      'Would recommend.',
      'Five stars.',
    ]) {
      assert.deepEqual(analyze(text).aspects, [], text);
    }
    const senior = createAnalyzer({ vertical: 'senior_living', technicians: [], services: [], serviceAreas: [] });
    assert.deepEqual(senior.analyze({ id: 'x', rating: 5, text: 'Mom moved in last spring.', title: null, language: null }).aspects, []);
  });
  it('an overall verdict still counts in the review sentiment', () => {
    assert.ok((analyze('Would recommend.').text_sentiment ?? 0) > 0);
  });
  // 2.9.1 and 2.9.2 read the burst pipe on a Sunday as responsiveness praise (+0.39); 2.9.0 and 2.10.0 to 2.13.0 do not.
  it('a review mixing narrative and judgement reports only the judged aspects', () => {
    const a = analyze('We called them about a burst pipe on a Sunday. The tech was friendly but the repair failed a week later.');
    assert.deepEqual(a.sentences[0].aspects, []);
    assert.equal(aspect(a, 'friendliness')?.polarity, 'positive');
    assert.equal(aspect(a, 'workmanship')?.polarity, 'negative');
  });
});

describe('negation and contrast with the trained models', () => {
  it('negated praise and negated complaints', () => {
    assert.equal(aspect(analyze("The tech didn't clean up at all."), 'cleanliness')?.polarity, 'negative');
    assert.equal(aspect(analyze('The price was not bad.'), 'pricing')?.polarity, 'positive');
  });
  it('each side of "but" judges its own aspect', () => {
    const a = analyze('He was friendly but the repair failed a week later.');
    assert.equal(aspect(a, 'friendliness')?.polarity, 'positive');
    assert.equal(aspect(a, 'workmanship')?.polarity, 'negative');
    const senior = createAnalyzer({ vertical: 'senior_living', technicians: [], services: [], serviceAreas: [] });
    const s = senior.analyze({ id: 'x', rating: 3, text: 'The aides are kind but the food is bland.', title: null, language: null });
    assert.deepEqual(Object.fromEntries(s.aspects.map((x) => [x.id, x.polarity])), { staff: 'positive', dining: 'negative' });
  });
});
