import fc from 'fast-check';

/** Home-services review sentences the insight property tests draw review texts from (written for the tests). */
export const REVIEW_SENTENCES = [
  'Mike fixed the leaking water heater fast and cleaned up after himself.',
  'The price was far too high for a simple clogged drain, very disappointing.',
  'They never showed up and never called back about the sewer line.',
  'Friendly, punctual and knowledgeable plumber; the new faucet works great.',
  'Scheduling was easy and the office was responsive.',
  'The toilet is leaking again, awful workmanship.',
  'Great job on the new water heater, fair price.',
  'Ok.',
];

/** A review text of one to three of the sentences above, or null once in `freq` draws. */
export const reviewTextArb = (freq: number): fc.Arbitrary<string | null> =>
  fc.option(
    fc.array(fc.constantFrom(...REVIEW_SENTENCES), { minLength: 1, maxLength: 3 }).map((s) => s.join(' ')),
    { nil: null, freq },
  );

/** A date (YYYY-MM-DD) among the `days` days from `from` (YYYY-MM-DD), the first included. */
export const dayArb = (from: string, days: number): fc.Arbitrary<string> =>
  fc.integer({ min: 0, max: days - 1 }).map((d) => new Date(Date.parse(from) + d * 86_400_000).toISOString().slice(0, 10));
