// ISO 3166-1 alpha-2 codes of the App Store storefronts (Apple's list of 175 countries and regions;
// XK is the code Apple uses for Kosovo). `country` inputs are checked against it.
import { z } from 'zod';

export const STOREFRONT_COUNTRIES = new Set(
  (
    'AE AF AG AI AL AM AO AR AT AU AZ BA BB BD BE BF BG BH BJ BM BN BO BR BS BT BW BY BZ CA CD CG CH CI CL CM CN CO CR CV CY ' +
    'CZ DE DK DM DO DZ EC EE EG ES FI FJ FM FR GA GB GD GE GH GM GR GT GW GY HK HN HR HU ID IE IL IN IQ IS IT JM JO JP KE KG ' +
    'KH KN KR KW KY KZ LA LB LC LK LR LT LU LV LY MA MD ME MG MK ML MM MN MO MR MS MT MU MV MW MX MY MZ NA NE NG NI NL NO NP ' +
    'NR NZ OM PA PE PG PH PK PL PT PW PY QA RO RS RU RW SA SB SC SE SG SI SK SL SN SR ST SV SZ TC TD TH TJ TM TN TO TR TT TW ' +
    'TZ UA UG US UY UZ VC VE VG VN VU XK YE ZA ZM ZW'
  ).split(' '),
);

const STOREFRONT_NOTE =
  'An ISO 3166-1 alpha-2 code of an App Store storefront, any case, answered upper-case ([the storefronts](/docs#storefronts)).';

/** Case-insensitive in, upper-case out. */
export const countrySchema = z
  .string()
  .regex(/^[A-Za-z]{2}$/, 'Use a two-letter ISO 3166-1 country code, such as US.')
  .transform((value) => value.toUpperCase())
  .refine((value) => STOREFRONT_COUNTRIES.has(value), 'This country has no App Store storefront.')
  .meta({ description: STOREFRONT_NOTE, example: 'US' });

/** A storefront input, described with what it means where it is used (its default, if any) and the storefronts' list. */
export function storefrontInput(meaning: string) {
  return countrySchema.meta({ description: `${meaning} ${STOREFRONT_NOTE}`, example: 'US' });
}
