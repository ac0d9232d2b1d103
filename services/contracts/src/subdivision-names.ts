/**
 * Names of the States, provinces and territories a client's `state` names (the ISO 3166-2 codes of
 * contracts' CLIENT_STATES, issue 39), for the client form's select and the client's details, and
 * the place of supply an invoice names (billing).
 */
const names = (prefix: string, entries: string): [string, string][] =>
  entries.split(';').map((e) => { const [code, name] = e.split('='); return [`${prefix}-${code!.trim()}`, name!.trim()]; });

export const SUBDIVISION_NAMES: ReadonlyMap<string, string> = new Map([
  ...names('US', 'AL=Alabama;AK=Alaska;AZ=Arizona;AR=Arkansas;CA=California;CO=Colorado;CT=Connecticut;DE=Delaware;DC=District of Columbia;FL=Florida;'
    + 'GA=Georgia;HI=Hawaii;ID=Idaho;IL=Illinois;IN=Indiana;IA=Iowa;KS=Kansas;KY=Kentucky;LA=Louisiana;ME=Maine;MD=Maryland;MA=Massachusetts;'
    + 'MI=Michigan;MN=Minnesota;MS=Mississippi;MO=Missouri;MT=Montana;NE=Nebraska;NV=Nevada;NH=New Hampshire;NJ=New Jersey;NM=New Mexico;'
    + 'NY=New York;NC=North Carolina;ND=North Dakota;OH=Ohio;OK=Oklahoma;OR=Oregon;PA=Pennsylvania;RI=Rhode Island;SC=South Carolina;'
    + 'SD=South Dakota;TN=Tennessee;TX=Texas;UT=Utah;VT=Vermont;VA=Virginia;WA=Washington;WV=West Virginia;WI=Wisconsin;WY=Wyoming;'
    + 'AS=American Samoa;GU=Guam;MP=Northern Mariana Islands;PR=Puerto Rico;UM=U.S. Minor Outlying Islands;VI=U.S. Virgin Islands'),
  ...names('CA', 'AB=Alberta;BC=British Columbia;MB=Manitoba;NB=New Brunswick;NL=Newfoundland and Labrador;NS=Nova Scotia;NT=Northwest Territories;'
    + 'NU=Nunavut;ON=Ontario;PE=Prince Edward Island;QC=Quebec;SK=Saskatchewan;YT=Yukon'),
  ...names('IN', 'AN=Andaman and Nicobar Islands;AP=Andhra Pradesh;AR=Arunachal Pradesh;AS=Assam;BR=Bihar;CH=Chandigarh;CG=Chhattisgarh;'
    + 'DH=Dadra and Nagar Haveli and Daman and Diu;DL=Delhi;GA=Goa;GJ=Gujarat;HR=Haryana;HP=Himachal Pradesh;JK=Jammu and Kashmir;JH=Jharkhand;'
    + 'KA=Karnataka;KL=Kerala;LA=Ladakh;LD=Lakshadweep;MP=Madhya Pradesh;MH=Maharashtra;MN=Manipur;ML=Meghalaya;MZ=Mizoram;NL=Nagaland;'
    + 'OD=Odisha;PY=Puducherry;PB=Punjab;RJ=Rajasthan;SK=Sikkim;TN=Tamil Nadu;TS=Telangana;TR=Tripura;UP=Uttar Pradesh;UK=Uttarakhand;WB=West Bengal'),
  ...names('AU', 'ACT=Australian Capital Territory;NSW=New South Wales;NT=Northern Territory;QLD=Queensland;SA=South Australia;TAS=Tasmania;VIC=Victoria;WA=Western Australia'),
  ...names('GB', 'ENG=England;NIR=Northern Ireland;SCT=Scotland;WLS=Wales'),
]);

/** 'New York (US-NY)'; an unknown code as it is. */
export function subdivisionLabel(code: string | null | undefined): string {
  if (!code) return '';
  const name = SUBDIVISION_NAMES.get(code);
  return name ? `${name} (${code})` : code;
}
