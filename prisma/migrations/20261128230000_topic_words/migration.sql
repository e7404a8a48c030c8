-- Review topics stored as the lemmatizer's Latin singulars ("datum", "medium") take the word reviewers write
-- (src/server/nlp/text.ts, TOPIC_WORDS). Data only: the schema does not change.
UPDATE reviews
SET topics = array_replace(array_replace(topics, 'datum', 'data'), 'medium', 'media')
WHERE topics && ARRAY['datum', 'medium']::text[];
