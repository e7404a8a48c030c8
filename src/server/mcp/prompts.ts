// The MCP server's prompts: work an analyst repeats, written as instructions to call the server's own tools (./tools.ts)
// and nothing else, with what each step costs. A prompt spends nothing itself; the tool calls it leads to are charged
// as usual.
import {
  ProtocolError,
  ProtocolErrorCode,
  type GetPromptResult,
  type Prompt as PromptDefinition,
} from '@modelcontextprotocol/server';

export interface Prompt {
  definition: PromptDefinition;
  /** The instructions, from the arguments (each required one present). */
  text: (args: Record<string, string>) => string;
}

const appArgument = { name: 'appId', description: 'The tracked app’s id (apps_list lists them).', required: true };
const countryArgument = {
  name: 'country',
  description: 'A storefront, e.g. US or GB; the app’s primary storefront when left out.',
  required: false,
};

function storefront(args: Record<string, string>): string {
  return args.country ? `, country "${args.country}"` : '';
}

export const PROMPTS: Prompt[] = [
  {
    definition: {
      name: 'weekly_aso_report',
      title: 'Weekly ASO report for one app',
      description:
        'A week’s ASO report of one tracked app: score, keyword ranks, category rank, ratings, listing changes and what reviews say. About 7 credits.',
      arguments: [appArgument, countryArgument],
    },
    text: (
      args,
    ) => `Write a weekly ASO report for the tracked app ${args.appId}${args.country ? ` in the ${args.country} storefront` : ''}, using only these tools (id "${args.appId}"${storefront(args)}):
1. apps_get: the app's name, store and storefronts (1 credit).
2. apps_aso_score: the ASO score and what lowers it (1 credit).
3. keywords_list: the tracked keywords with their ranks and changes (1 credit).
4. apps_category_rank: the category rank over the last days (1 credit).
5. apps_rating_history: the ratings over time (1 credit).
6. metadata_changelog: what changed in the listing (1 credit).
7. reviews_insights: what reviews praise and complain about (1 credit).
Report: the headline numbers and their change over the week; the keywords that moved most, up and down; any listing change and whether ranks moved after it; the top review themes; and three concrete actions for next week. State the credits the report spent, from each result's _meta.credits.`,
  },
  {
    definition: {
      name: 'keyword_opportunities',
      title: 'Keyword opportunities in a storefront',
      description:
        'Keywords worth targeting for one app in one storefront, from its opportunities and competitors’ keywords, checked with live research. 4 credits, plus 8 for each term researched.',
      arguments: [
        appArgument,
        {
          ...countryArgument,
          description: 'The storefront to look in, e.g. US or GB; the app’s primary storefront when left out.',
        },
      ],
    },
    text: (
      args,
    ) => `Find keyword opportunities for the tracked app ${args.appId}${args.country ? ` in the ${args.country} storefront` : ''}, using only these tools (id "${args.appId}"${storefront(args)}):
1. apps_opportunities: keywords with volume the app ranks poorly for or not at all (2 credits).
2. apps_keyword_spy: the keywords its competitors rank for (1 credit).
3. keywords_list: what the app already tracks, to leave out (1 credit).
4. keywords_research for at most the 3 most promising new terms: live volume, difficulty and the top apps (8 credits each; ask before researching more).
Answer with a table of up to 10 terms (volume, difficulty, the app's rank, the best competitor's rank, why it is worth it), then the terms to add. Add them with keywords_add only if asked to (2 credits).`,
  },
  {
    definition: {
      name: 'competitor_watch',
      title: 'What competitors changed',
      description:
        'The tracked competitors of one app, and what the app’s listing and ratings did meanwhile. About 4 credits.',
      arguments: [appArgument, countryArgument],
    },
    text: (
      args,
    ) => `Summarise the competitive position of the tracked app ${args.appId}, using only these tools (id "${args.appId}"${storefront(args)}):
1. competitors_list: the competitors tracked for it, with their ratings and ranks (1 credit).
2. apps_keyword_spy: the keywords they rank for and the app does not (1 credit).
3. metadata_changelog: the app's own listing changes (1 credit).
4. apps_rating_history: the app's ratings over time (1 credit).
Say where each competitor is ahead and by how much, which of their keywords the app could contest, and what to change first.`,
  },
];

export function promptMessages(prompt: Prompt, args: Record<string, string>): GetPromptResult {
  for (const argument of prompt.definition.arguments ?? []) {
    if (argument.required && !args[argument.name]?.trim())
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `The prompt "${prompt.definition.name}" needs the argument "${argument.name}".`,
      );
  }
  return {
    description: prompt.definition.description,
    messages: [{ role: 'user', content: { type: 'text', text: prompt.text(args) } }],
  };
}
