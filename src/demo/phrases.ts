/** Sentence material for the demo generator, by aspect and sentiment; `{t}` is a technician, `{s}` a service. */
export const ASPECT_PHRASES: Record<string, { pos: string[]; neg: string[] }> = {
  punctuality: {
    pos: [
      '{t} showed up right on time.',
      'They arrived exactly when they said they would.',
      'The tech was early, which I appreciated.',
      'Punctual and called ahead when on the way.',
    ],
    neg: [
      '{t} showed up two hours late with no call.',
      'They were late and nobody let us know.',
      'We waited all morning and the tech arrived after the window.',
      'Missed the appointment window twice.',
    ],
  },
  pricing: {
    pos: [
      'The price was fair and exactly what was quoted.',
      'Very reasonable rates compared to other quotes we got.',
      'Great value for the money.',
      'No surprise fees; the final bill matched the estimate.',
    ],
    neg: [
      'Way overpriced for a thirty-minute job.',
      'The final bill was much higher than the quote.',
      'They charged a hefty trip fee just to look at it.',
      'Too expensive; we paid almost double what a neighbor paid.',
    ],
  },
  workmanship: {
    pos: [
      '{t} fixed the leak fast and it has not dripped since.',
      'The work was neat and done right the first time.',
      'Quality workmanship, everything works perfectly.',
      'The new install looks professional and solid.',
    ],
    neg: [
      'The repair failed a week later and the leak came back.',
      'Sloppy work; the pipe was not even secured.',
      'They did not fix the problem and we had to call someone else.',
      'The fitting started leaking again the next day.',
    ],
  },
  professionalism: {
    pos: [
      '{t} was very professional and courteous.',
      'Polite, respectful and wore shoe covers in the house.',
      'A true professional from start to finish.',
      'Honest and trustworthy, did not try to upsell us.',
    ],
    neg: [
      'The tech was rude and dismissive.',
      'Felt like they were trying to upsell us on things we did not need.',
      'Unprofessional attitude and a lot of complaining.',
      'He was on his phone the whole time.',
    ],
  },
  communication: {
    pos: [
      '{t} explained everything clearly before starting.',
      'Great communication, they kept us informed the whole time.',
      'The office texted updates and answered every question.',
      'He walked me through the options and the costs.',
    ],
    neg: [
      'Nobody explained what they were doing.',
      'Terrible communication; I had to call three times for an update.',
      'They never returned my calls about the invoice.',
      'No one told us the part was back-ordered.',
    ],
  },
  cleanliness: {
    pos: [
      'Left the bathroom cleaner than they found it.',
      'Very tidy, cleaned up everything after the job.',
      'They put down drop cloths and cleaned up after.',
      'Spotless work area when they were done.',
    ],
    neg: [
      'Left a mess of mud and debris in the basement.',
      'They did not clean up and left old parts behind.',
      'Water and dirt all over the kitchen floor afterwards.',
      'Muddy footprints across our new carpet.',
    ],
  },
  technical_knowledge: {
    pos: [
      '{t} knew exactly what the problem was within minutes.',
      'Very knowledgeable and diagnosed the issue quickly.',
      'Clearly an expert with years of experience.',
      'Found the real cause that two other companies missed.',
    ],
    neg: [
      'The tech seemed unsure and guessed at the problem.',
      'He misdiagnosed the issue and replaced the wrong part.',
      'Did not seem to know how a tankless unit works.',
      'Inexperienced; he had to call the office for help twice.',
    ],
  },
  responsiveness: {
    pos: [
      'They came out the same day I called.',
      'Quick response on a Sunday night emergency.',
      'Answered the phone immediately and sent someone within the hour.',
      'Fast response when our basement was flooding.',
    ],
    neg: [
      'It took them four days to call me back.',
      'Slow to respond even though it was an emergency.',
      'Nobody answered the emergency line.',
      'Took a week just to get someone out here.',
    ],
  },
  friendliness: {
    pos: [
      '{t} was friendly and great with our kids and dog.',
      'Such a nice, friendly crew.',
      'Warm and personable, made us feel at ease.',
      'Cheerful and patient with all my questions.',
    ],
    neg: [
      'Not very friendly, barely said a word.',
      'The crew was grumpy and short with us.',
      'Cold and impatient when I asked questions.',
      'Made me feel stupid for asking.',
    ],
  },
  scheduling: {
    pos: [
      'Booking online was easy and they had a slot the next morning.',
      'Scheduling was simple and flexible around my work.',
      'They fit us in on short notice.',
      'Easy to book and they confirmed the day before.',
    ],
    neg: [
      'They cancelled our appointment twice.',
      'Scheduling was a nightmare and they rescheduled without asking.',
      'Could not get an appointment for two weeks.',
      'The booking system lost our appointment.',
    ],
  },
};

export const OPENERS = [
  'We called Brightwater about a {p}.',
  'Had a {p} and needed help fast.',
  'Used them for {s}.',
  'Hired them for {s} at our house.',
  'Our {p} finally got fixed.',
  'Called for {s} after a {p}.',
];

export const PROBLEMS = [
  'leak under the sink',
  'clogged drain',
  'no hot water',
  'burst pipe',
  'running toilet',
  'low water pressure',
  'sewer backup',
  'noisy water heater',
  'flooded basement',
  'dripping faucet',
  'broken furnace',
];

export const CLOSERS_POS = [
  'Highly recommend!',
  'Will definitely use them again.',
  'Five stars, thank you!',
  'Best plumber we have had.',
  'Our go-to plumber from now on.',
];
export const CLOSERS_NEG = [
  'Would not recommend.',
  'Will not use them again.',
  'Very disappointed.',
  'Look elsewhere.',
  'Not worth the money.',
];
export const CLOSERS_MIX = ['Overall okay, but there is room for improvement.', 'Mixed experience.', 'Decent, not great.'];

export const REPLIES_POS = [
  'Thank you so much for the kind words! We are glad {t} could help.',
  'Thanks for choosing Brightwater — we appreciate you!',
  'We are thrilled you are happy with the work. See you next time!',
];
export const REPLIES_NEG = [
  'We are sorry to hear this. Please call our office so we can make it right.',
  'This is not the experience we want for anyone. Our service manager will reach out today.',
  'Thank you for the feedback; we have shared it with the team and would like to fix this.',
];

export const FIRST_NAMES = [
  'Jennifer',
  'Michael',
  'Linda',
  'David',
  'Emily',
  'Robert',
  'Maria',
  'James',
  'Patricia',
  'Daniel',
  'Susan',
  'Chris',
  'Karen',
  'Brian',
  'Nancy',
  'Kevin',
  'Lisa',
  'Jason',
  'Angela',
  'Matt',
  'Sofia',
  'Hiroshi',
  'Fatima',
  'Olga',
  'Liam',
  'Noah',
  'Ava',
  'Mei',
  'Carlos',
  'Aisha',
];
export const LAST_INITIALS = 'ABCDEFGHIJKLMNOPRSTVWY';
