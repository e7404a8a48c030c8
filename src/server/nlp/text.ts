// Natural-language processing of review texts with wink-nlp and its English lite model (shipped as an npm
// package): lexicon sentiment, sentences and noun lemmas for topics.
import winkNLP from 'wink-nlp';
import model from 'wink-eng-lite-web-model';

type Nlp = ReturnType<typeof winkNLP>;
let instance: Nlp | undefined;

function nlp(): Nlp {
  instance ??= winkNLP(model);
  return instance;
}

export interface AnalysedText {
  sentences: string[];
  /** Lemmas of the nouns (and proper nouns), lower-case. */
  nouns: string[];
  /** −1 (negative) … 1 (positive). */
  sentiment: number;
}

/**
 * Lemmas that are not the word reviewers write, as a topic would show them: the lemmatizer takes "data" and "media" for
 * plurals of Latin singulars. The migration 20261128230000_topic_words corrected the stored ones.
 */
const TOPIC_WORDS: Record<string, string> = { datum: 'data', medium: 'media' };

function topicWord(lemma: string): string {
  return TOPIC_WORDS[lemma] ?? lemma;
}

/** One reading of the text (wink-nlp's tokenising and tagging is the costly part) for all it yields. */
export function analyse(text: string): AnalysedText {
  const engine = nlp();
  const doc = engine.readDoc(text);
  const sentiment = Math.round(Number(doc.out(engine.its.sentiment)) * 1000) / 1000;
  const sentences = doc.sentences().out() as string[];
  const nouns: string[] = [];
  const pos = doc.tokens().out(engine.its.pos) as string[];
  // its.lemma needs the model's lemmatizer add-on (the lite model ships it); its declared type says so
  // through a signature `out` does not accept, though both yield one string per token.
  const lemmas = doc.tokens().out(engine.its.lemma as unknown as typeof engine.its.pos) as string[];
  pos.forEach((tag, index) => {
    if (tag === 'NOUN' || tag === 'PROPN') nouns.push(topicWord(lemmas[index]!.toLowerCase()));
  });
  return { sentences, nouns, sentiment };
}

// Words too general to be a topic of a review.
const NOT_TOPICS = new Set([
  'app',
  'apps',
  'application',
  'update',
  'time',
  'thing',
  'star',
  'version',
  'day',
  'way',
  'lot',
  'bit',
  'people',
  'friend',
  'penny',
  'everything',
  'nothing',
  'something',
  'anything',
  'one',
  'experience',
  'idea',
  'part',
  'concept',
  'problem',
  'work',
  'price',
  'use',
  'week',
  'month',
  'year',
  'user',
  'developer',
  'developers',
  'please',
  'thanks',
  'love',
  'need',
  'difference',
  // Evaluative words the lite model sometimes tags as nouns at the start of a sentence.
  'wonderful',
  'terrible',
  'great',
  'good',
  'excellent',
  'fantastic',
  'amazing',
  'awesome',
  'beautiful',
  'perfect',
  'absolutely',
  'simple',
  'worth',
  'best',
  'star',
  'stars',
]);

const BUG_PATTERN =
  /\b(crash(?:es|ed|ing)?|bugs?|buggy|freez(?:e|es|ing)|frozen|errors?|broken|glitch(?:es|y)?|(?:does ?n[o']?t|not|stopped|never) (?:work|working|load|loading|sync|syncing|open|opening)|won'?t (?:open|load|sync|start)|lost (?:all )?(?:my )?data|blank screen|charged twice)\b/i;

const REQUEST_PATTERN =
  /(?:please add|please make|i wish there (?:was|were)|wish there (?:was|were)|would (?:be nice|love) to (?:have|see)|would be (?:great|nice|perfect|awesome) if you (?:could|would) add|it would be (?:great|nice|perfect) to have|could you add|add an? option (?:to|for)|feature request:?)\s+([^.!?]+)/i;

export interface ReviewAnalysis {
  sentiment: number;
  topics: string[];
  bugReport: boolean;
  featureRequests: string[];
}

/** What insights need from one review, computed once when it is stored. */
export function analyseReview(title: string, body: string): ReviewAnalysis {
  const text = `${title}. ${body}`;
  const { sentences, nouns, sentiment } = analyse(text);
  const featureRequests: string[] = [];
  for (const sentence of sentences) {
    const match = REQUEST_PATTERN.exec(sentence);
    if (!match) continue;
    const request = match[1]!
      .split(/\s+(?:and|but|so|because)\s+/i)[0]!
      .replace(/^(?:an?|the|some|more)\s+/i, '')
      .trim()
      .toLowerCase();
    if (request.length >= 3 && request.length <= 60) featureRequests.push(request);
  }
  return {
    sentiment,
    topics: [
      ...new Set(nouns.filter((noun) => noun.length > 2 && !NOT_TOPICS.has(noun) && /^[\p{L}][\p{L}-]*$/u.test(noun))),
    ].slice(0, 12),
    bugReport: sentences.some((sentence) => BUG_PATTERN.test(sentence)),
    featureRequests: [...new Set(featureRequests)],
  };
}
