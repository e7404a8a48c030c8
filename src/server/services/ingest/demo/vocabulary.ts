// Search terms per App Store category, for the demo data: what an app of that category ranks for.
const BY_CATEGORY: Record<string, string[]> = {
  'Health & Fitness': [
    'meditation', 'sleep', 'sleep sounds', 'white noise', 'breathing', 'breathing exercises', 'mindfulness', 'anxiety relief',
    'calm', 'relax', 'stress relief', 'sleep stories', 'guided meditation', 'yoga', 'focus', 'rain sounds', 'insomnia',
    'meditation app', 'sleep tracker', 'calm music', 'headspace', 'self care', 'mood tracker', 'journal', 'habit tracker',
    'nature sounds', 'sleep timer', 'bedtime stories', 'deep sleep', 'binaural beats', 'panic attack', 'wellness',
    'mental health', 'affirmations', 'gratitude journal', 'power nap', 'ocean sounds', 'lullaby', 'zen', 'body scan',
  ],
  Finance: [
    'budget', 'budget planner', 'expense tracker', 'money manager', 'spending tracker', 'budgeting app', 'bills', 'savings',
    'personal finance', 'debt payoff', 'finance', 'money', 'bill reminder', 'receipt scanner', 'net worth', 'subscriptions',
    'envelope budget', 'zero based budget', 'household budget', 'cash flow', 'invoice', 'tax', 'investing', 'crypto',
    'bank', 'wallet', 'piggy bank', 'allowance', 'financial planner', 'expense report', 'money tracker', 'spending',
    'split bills', 'goals', 'paycheck', 'credit score', 'shared budget', 'income tracker', 'monthly budget', 'family budget',
  ],
  Games: [
    'match 3', 'puzzle games', 'puzzle', 'match three', 'candy', 'casual games', 'offline games', 'brain games', 'jewels',
    'blast', 'merge', 'word games', 'free games', 'games', 'block puzzle', 'tile match', 'harbor', 'ocean games', 'relaxing games',
    'logic puzzles', 'fun games', 'gems', 'swap', 'crush', 'matching games', 'family games', 'mahjong', 'bubble shooter',
    'solitaire', 'sudoku', 'hidden objects', 'adventure puzzle', 'island', 'boat games', 'fish games', 'connect', 'pop',
    'cozy games', 'kids games', 'no wifi games',
  ],
};

const GENERIC = [
  'app', 'free', 'best app', 'tracker', 'planner', 'widget', 'simple', 'daily', 'pro', 'premium', 'organizer', 'reminder',
  'productivity', 'tools', 'utility', 'assistant', 'notes', 'calendar', 'timer', 'schedule',
];

export function vocabularyFor(category: string): string[] {
  return BY_CATEGORY[category] ?? GENERIC;
}

/** Words that describe features, for review texts, by category. */
export const FEATURES: Record<string, string[]> = {
  'Health & Fitness': ['sleep stories', 'breathing exercises', 'rain sounds', 'daily meditation', 'sleep timer', 'streak tracker', 'guided sessions'],
  Finance: ['budget categories', 'bank sync', 'spending reports', 'bill reminders', 'receipt scanner', 'savings goals', 'widgets'],
  Games: ['daily challenges', 'level design', 'boosters', 'the harbor levels', 'offline mode', 'the puzzles', 'the events'],
};
export const GENERIC_FEATURES = ['the widgets', 'the design', 'sync', 'notifications', 'the settings', 'dark mode', 'the interface'];

const PLACE = new Map<string, number>();
for (const terms of Object.values(BY_CATEGORY)) terms.forEach((term, index) => PLACE.set(term, Math.min(index, PLACE.get(term) ?? index)));

/** Position of a term in its category list (0 = the head term), or null for terms outside the lists. */
export function vocabularyPlace(termKey: string): number | null {
  return PLACE.get(termKey) ?? null;
}
