// Review texts for the demo data: templates by star rating, with praise, complaints, bug reports and
// feature requests, so that sentiment and insights have real language to work on.
import type { SeededRandom } from './random';

const TITLES: Record<number, string[]> = {
  5: ['Love it', 'Exactly what I needed', 'Five stars', 'Life changing', 'So good', 'Highly recommend'],
  4: ['Really good', 'Great, a few wishes', 'Very helpful', 'Nice app', 'Almost perfect'],
  3: ['It is okay', 'Decent but…', 'Mixed feelings', 'Average', 'Three stars'],
  2: ['Disappointed', 'Getting worse', 'Not worth the price', 'Too many problems'],
  1: ['Crashes constantly', 'Terrible update', 'Do not buy', 'Broken', 'Waste of money'],
};

const BODIES: Record<number, string[]> = {
  5: [
    'I use {feature} every single day and it has made a huge difference. Beautiful design and very easy to use.',
    'Wonderful app. {feature} is fantastic and the whole experience feels calm and polished.',
    'Absolutely love {feature}. I recommend it to all my friends.',
    'Simple, beautiful and reliable. {feature} works perfectly and I have never had a problem.',
  ],
  4: [
    'Really helpful app and I enjoy {feature}. Please add {request} and it would be perfect.',
    'Great experience overall. {feature} is excellent, but I wish there was {request}.',
    'Very good app, clean interface. Would be nice to have {request}.',
  ],
  3: [
    'It does what it says. I open {feature} a few times a week.',
    'Installed it last month and use {feature} now and then.',
    'The app is fine but {feature} feels slow lately. It would be great if you could add {request}.',
    'Good concept. {feature} is useful, but the subscription is expensive for what you get.',
    'Some good parts, but {feature} sometimes does not load and I have to restart the app.',
  ],
  2: [
    'Since the last update {feature} is slow and buggy. The subscription price went up too.',
    'Too many ads and popups. {feature} stopped syncing and support never answered.',
    'The app freezes when I open {feature}. Please fix it, I used to like this app.',
  ],
  1: [
    'The app crashes every time I open {feature}. Completely broken after the update.',
    'Terrible. I was charged twice and the app keeps crashing on launch. Support is useless.',
    'Lost all my data after the update. {feature} shows an error and nothing works.',
    'Constant crashes, login error and the screen stays blank. Do not waste your money.',
  ],
};

const REQUESTS = [
  'an Apple Watch app',
  'dark mode',
  'a home screen widget',
  'offline mode',
  'iCloud sync',
  'more languages',
  'an iPad version',
  'export to CSV',
];

const AUTHORS = [
  'sunnyday88',
  'mkwalker',
  'Jess T.',
  'nightowl',
  'Priya_R',
  'coffee&code',
  'Tom from Leeds',
  'AnnaK',
  'dev_dad',
  'luna.m',
  'Rafa',
  'k8lyn',
  'BenG',
  'quietreader',
  'Mo S.',
];

/** Star ratings drawn around an app's average: mostly 5s and 4s, a tail of 1s. */
export function drawRating(random: SeededRandom, average: number): number {
  const roll = random.next();
  const shift = (average - 4.3) * 0.25;
  if (roll < 0.55 + shift) return 5;
  if (roll < 0.75 + shift) return 4;
  if (roll < 0.85 + shift) return 3;
  if (roll < 0.9 + shift) return 2;
  return 1;
}

export function writeReview(random: SeededRandom, rating: number, features: string[]) {
  const fill = (template: string) =>
    template.replaceAll('{feature}', () => random.pick(features)).replaceAll('{request}', () => random.pick(REQUESTS));
  const body = fill(random.pick(BODIES[rating]!)).replace(
    /(^|[.!?]\s+)([a-z])/g,
    (_, boundary: string, letter: string) => boundary + letter.toUpperCase(),
  );
  return { title: random.pick(TITLES[rating]!), body, author: random.pick(AUTHORS) };
}
