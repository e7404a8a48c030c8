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

/** −1 (negative) … 1 (positive). */
export function sentimentOf(text: string): number {
  const engine = nlp();
  return Math.round(Number(engine.readDoc(text).out(engine.its.sentiment)) * 1000) / 1000;
}

export interface AnalysedText {
  sentences: string[];
  /** Lemmas of the nouns (and proper nouns), lower-case. */
  nouns: string[];
}

export function analyse(text: string): AnalysedText {
  const engine = nlp();
  const doc = engine.readDoc(text);
  const sentences = doc.sentences().out() as string[];
  const nouns: string[] = [];
  const pos = doc.tokens().out(engine.its.pos) as string[];
  // its.lemma needs the model's lemmatizer add-on (the lite model ships it); its declared type says so
  // through a signature `out` does not accept, though both yield one string per token.
  const lemmas = doc.tokens().out(engine.its.lemma as unknown as typeof engine.its.pos) as string[];
  pos.forEach((tag, index) => {
    if (tag === 'NOUN' || tag === 'PROPN') nouns.push(lemmas[index]!.toLowerCase());
  });
  return { sentences, nouns };
}
