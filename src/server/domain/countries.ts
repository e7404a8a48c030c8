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

/**
 * The ISO 3166-1 alpha-3 code of each storefront, as App Store Connect names a review's territory (XKS: Kosovo, as
 * Apple spells it); the storefront of a territory: TERRITORY_STOREFRONTS.
 */
const STOREFRONT_TERRITORIES: Record<string, string> = Object.fromEntries(
  (
    'AE:ARE AF:AFG AG:ATG AI:AIA AL:ALB AM:ARM AO:AGO AR:ARG AT:AUT AU:AUS AZ:AZE BA:BIH BB:BRB BD:BGD BE:BEL BF:BFA ' +
    'BG:BGR BH:BHR BJ:BEN BM:BMU BN:BRN BO:BOL BR:BRA BS:BHS BT:BTN BW:BWA BY:BLR BZ:BLZ CA:CAN CD:COD CG:COG CH:CHE ' +
    'CI:CIV CL:CHL CM:CMR CN:CHN CO:COL CR:CRI CV:CPV CY:CYP CZ:CZE DE:DEU DK:DNK DM:DMA DO:DOM DZ:DZA EC:ECU EE:EST ' +
    'EG:EGY ES:ESP FI:FIN FJ:FJI FM:FSM FR:FRA GA:GAB GB:GBR GD:GRD GE:GEO GH:GHA GM:GMB GR:GRC GT:GTM GW:GNB GY:GUY ' +
    'HK:HKG HN:HND HR:HRV HU:HUN ID:IDN IE:IRL IL:ISR IN:IND IQ:IRQ IS:ISL IT:ITA JM:JAM JO:JOR JP:JPN KE:KEN KG:KGZ ' +
    'KH:KHM KN:KNA KR:KOR KW:KWT KY:CYM KZ:KAZ LA:LAO LB:LBN LC:LCA LK:LKA LR:LBR LT:LTU LU:LUX LV:LVA LY:LBY MA:MAR ' +
    'MD:MDA ME:MNE MG:MDG MK:MKD ML:MLI MM:MMR MN:MNG MO:MAC MR:MRT MS:MSR MT:MLT MU:MUS MV:MDV MW:MWI MX:MEX MY:MYS ' +
    'MZ:MOZ NA:NAM NE:NER NG:NGA NI:NIC NL:NLD NO:NOR NP:NPL NR:NRU NZ:NZL OM:OMN PA:PAN PE:PER PG:PNG PH:PHL PK:PAK ' +
    'PL:POL PT:PRT PW:PLW PY:PRY QA:QAT RO:ROU RS:SRB RU:RUS RW:RWA SA:SAU SB:SLB SC:SYC SE:SWE SG:SGP SI:SVN SK:SVK ' +
    'SL:SLE SN:SEN SR:SUR ST:STP SV:SLV SZ:SWZ TC:TCA TD:TCD TH:THA TJ:TJK TM:TKM TN:TUN TO:TON TR:TUR TT:TTO TW:TWN ' +
    'TZ:TZA UA:UKR UG:UGA US:USA UY:URY UZ:UZB VC:VCT VE:VEN VG:VGB VN:VNM VU:VUT XK:XKS YE:YEM ZA:ZAF ZM:ZMB ZW:ZWE'
  )
    .split(' ')
    .map((pair) => pair.split(':') as [string, string]),
);

const TERRITORY_STOREFRONTS: ReadonlyMap<string, string> = new Map(
  Object.entries(STOREFRONT_TERRITORIES).map(([alpha2, alpha3]) => [alpha3, alpha2]),
);

/** The storefront (alpha-2) of an App Store Connect territory (alpha-3); null when it is none of the storefronts. */
export function storefrontOfTerritory(territory: string | null): string | null {
  return territory ? (TERRITORY_STOREFRONTS.get(territory.toUpperCase()) ?? null) : null;
}
