import type { RequestTemplate } from '@ledgerline/contracts/requests.contracts.ts';

type Items = RequestTemplate['items'];
const item = (title: string, description: string | null = null, required = true) => ({ title, description, required });

const INDIVIDUAL_RETURN: Items = [
  item('Income statements', 'Salary certificates or pay slips, pension and benefit statements for the year'),
  item('Interest and dividend statements', 'From every bank and broker'),
  item('Deduction and relief evidence', 'Donations, pension contributions, insurance, home loan interest', false),
  item('Prior-year return', 'The return filed for the previous year', false),
];

const PAYROLL: Items = [
  item('Payroll register', 'Gross pay, deductions and net pay per employee for the period'),
  item('Joiners and leavers', 'Start and end dates, with their documents', false),
];

/**
 * Checklists for the statutory calendars' entries (services/compliance/src/presets/calendars),
 * keyed by the report type names the calendars create: a request made from a tracker item of
 * that report type asks for exactly these, unless the firm made its own template for it.
 */
export const STATUTORY_TEMPLATES: Readonly<Record<string, Items>> = {
  // India
  'GSTR-1': [item('Sales register', 'Every outward supply invoice of the month, with GSTINs'), item('Credit and debit notes', null, false), item('Export invoices and shipping bills', null, false)],
  'GSTR-3B': [item('Sales register', 'Outward supplies of the month'), item('Purchase register', 'Inward supplies with the suppliers\' GSTINs, for input tax credit'), item('Bank statements', 'Every account, for the month')],
  'TDS deposit (challan ITNS 281)': [item('Payments with tax deducted', 'Salaries, rent, contractor and professional fees paid in the month')],
  'TDS return (Form 24Q/26Q)': [item('Challans paid', 'ITNS 281 challans of the quarter'), item('Deductee details', 'PAN, amount paid and tax deducted per payee')],
  'Advance tax instalment': [item('Income to date', 'Profit and loss or income statements for the year so far'), item('Expected income for the rest of the year', null, false)],
  'ITR (income tax return)': [item('Form 16 / 16A', 'TDS certificates from employers and payers'), item('Form 26AS / AIS', 'Annual tax statement from the e-filing portal'), item('Bank statements and interest certificates'), item('Investment proofs (80C, 80D)', null, false), item('Capital gains statements', null, false)],
  // United States
  'Form 1040': [item('W-2s', 'Every employer\'s wage statement'), item('1099s', '1099-INT, -DIV, -B, -NEC, -MISC, -R and others you received'), item('Prior-year return', 'Last year\'s federal return'), item('Deductions and credits', 'Mortgage interest (1098), charitable gifts, education (1098-T), childcare', false), item('Health coverage (1095)', null, false)],
  'Form 941': PAYROLL,
  'Form 1120-S': [item('Trial balance and financial statements'), item('Bank and credit card statements', 'All twelve months'), item('Shareholder distributions and loans'), item('Fixed asset additions and disposals', null, false)],
  'Form 1065': [item('Trial balance and financial statements'), item('Bank statements', 'All twelve months'), item('Partner capital contributions and distributions'), item('Fixed asset additions and disposals', null, false)],
  'Estimated tax (Form 1040-ES)': [item('Income to date', 'Pay stubs, 1099s and business income for the year so far'), item('Prior-year return', null, false)],
  'Form W-2 / W-3': [item('Annual payroll summary', 'Wages, tips and withholding per employee'), item('Employee addresses and SSNs', 'Changes during the year')],
  // United Kingdom
  'VAT Return': [item('Sales invoices', 'Every invoice issued in the quarter'), item('Purchase invoices', 'Every invoice received in the quarter'), item('Bank statements', 'For the quarter'), item('Import VAT statements (C79/PVA)', null, false)],
  'Self Assessment return (SA100)': [item('P60 and P11D', 'From every employer'), item('Self-employment income and expenses', null, false), item('Rental income and expenses', null, false), item('Bank interest and dividends'), item('Pension contributions and Gift Aid', null, false)],
  'Self Assessment payment on account': [item('Income to date', 'Any change since the last return that may lower the payments', false)],
  'PAYE payment': PAYROLL,
  'Corporation Tax return (CT600)': [item('Trial balance and year-end accounts'), item('Bank statements', 'All accounts, the whole period'), item('Fixed asset register', null, false), item('Directors\' loan account movements', null, false)],
  // Australia
  'BAS (quarterly)': [item('Sales invoices', 'With GST for the quarter'), item('Purchase receipts', 'With GST credits claimed'), item('Bank statements', 'For the quarter'), item('PAYG withholding summary', null, false)],
  'Income tax return (individual)': INDIVIDUAL_RETURN,
  'Company tax return': [item('Trial balance and financial statements'), item('Bank statements', 'The whole income year'), item('Depreciation schedule', null, false)],
  'Superannuation guarantee': [item('Payroll register', 'Ordinary time earnings per employee for the quarter'), item('Super fund details of new employees', null, false)],
};
