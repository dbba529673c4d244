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
