import type { ShippedOrganizerTemplate } from './index.ts';

/*
 * India income tax return checklist, reviewed against the Income Tax Department's ITR-1
 * (Sahaj) and ITR-2 forms and their instructions (with ITR-3 and ITR-4 for business or
 * profession): PAN and its Aadhaar link, residential status, the tax regime (the new regime
 * of section 115BAC is the default; the old regime is chosen on the return), Schedules S
 * (salary, Form 16), HP (house property), CG (capital gains), BP (business or profession),
 * OS (other sources), VI-A (deductions: 80C, 80D and others) with the HRA exemption, IT
 * (advance and self-assessment tax paid by challan), AL (assets and liabilities) and FA
 * (foreign assets, for residents, by calendar year), the bank accounts for a refund, and the
 * Annual Information Statement (AIS), Taxpayer Information Summary (TIS) and Form 26AS.
 *
 * It speaks of the financial year (1 April to 31 March) whose return is filed in the
 * assessment year after it. Section numbers are the Income-tax Act, 1961's, which governs
 * income up to 31 March 2026; the Income-tax Act, 2025 calls the same twelve months the
 * "tax year" and renumbers the sections, so the questions also name each item in plain words.
 */

export const INDIA_ITR_CHECKLIST: ShippedOrganizerTemplate = {
  builtIn: 'india-itr',
  reportTypeName: 'ITR (income tax return)',
  template: {
    name: 'India income tax return checklist (ITR)',
    jurisdiction: 'IN',
    description: 'For your income tax return for the financial year this checklist is for (1 April to 31 March), filed in the assessment year that follows. Each "yes" adds the document we need to your list.',
    sections: [
      {
        id: 'about_you', title: 'About you',
        questions: [
          { id: 'pan', type: 'text', title: 'Your PAN (Permanent Account Number)', help: 'Ten characters: five letters, four digits, one letter.', sensitive: true },
          { id: 'aadhaar_linked', type: 'yes_no', title: 'Is your PAN linked with your Aadhaar?', help: 'A PAN that is not linked becomes inoperative, which holds up refunds; we can help you link it.' },
          { id: 'residential_status', type: 'single_choice', title: 'Your residential status for the financial year', choices: ['Resident and ordinarily resident', 'Resident but not ordinarily resident (RNOR)', 'Non-resident', 'Not sure'], help: 'It depends on the days you were in India in the year and in earlier years; if unsure, tell us your travel dates in the last question.' },
          { id: 'tax_regime', type: 'single_choice', title: 'Which tax regime should we use?', choices: ['New tax regime (the default)', 'Old tax regime (with deductions and exemptions)', 'Compare both and use the one with the lower tax'], help: 'The new regime (section 115BAC) applies unless you opt out. With business income, opting out needs Form 10-IEA before the due date.' },
          { id: 'has_old_regime_deductions', type: 'yes_no', title: 'Do you have investments, insurance premiums, rent, loans or donations that the old regime deducts (sections 80C, 80D, HRA and others)?', help: 'Answer yes if you chose the old regime or asked us to compare: the next pages ask which.' },
          { id: 'ais_tis', type: 'single_choice', title: 'Your Annual Information Statement (AIS), Taxpayer Information Summary (TIS) and Form 26AS', choices: ['Please download them for me (we will ask for access)', 'I will upload them'], requestItem: { when: 'I will upload them', title: 'Annual Information Statement (AIS), Taxpayer Information Summary (TIS) and Form 26AS' } },
        ],
      },
      {
        id: 'salary', title: 'Salary (Schedule S)',
        questions: [
          { id: 'salaried', type: 'yes_no', title: 'Did you receive salary or pension in the financial year?', requestItem: { when: true, title: 'Form 16 from each employer' } },
          { id: 'changed_jobs', type: 'yes_no', title: 'Did you work for more than one employer in the year?', showIf: { questionId: 'salaried', equals: true }, requestItem: { when: true, title: 'Form 16 and final payslip from your previous employer' } },
        ],
      },
      {
        id: 'house_property', title: 'House property (Schedule HP)',
        questions: [
          { id: 'owns_house_property', type: 'yes_no', title: 'Do you own a house or flat (lived in, let out or vacant)?' },
          { id: 'let_out_property', type: 'yes_no', title: 'Was any of it let out?', showIf: { questionId: 'owns_house_property', equals: true }, requestItem: { when: true, title: 'Rent received, municipal taxes paid and the tenant\'s details for each let-out property' } },
          { id: 'home_loan', type: 'yes_no', title: 'Did you pay interest on a home loan?', showIf: { questionId: 'owns_house_property', equals: true }, requestItem: { when: true, title: 'Home loan interest certificate from your lender (interest and principal for the year)' } },
        ],
      },
      {
        id: 'capital_gains', title: 'Capital gains (Schedule CG)',
        questions: [
          { id: 'sold_securities', type: 'yes_no', title: 'Did you sell shares, mutual fund units, bonds or other securities?', requestItem: { when: true, title: 'Capital gains statements from your brokers and mutual funds' } },
          { id: 'sold_property', type: 'yes_no', title: 'Did you sell land, a building or other property?', requestItem: { when: true, title: 'Sale deed, purchase deed and records of improvement costs' } },
          { id: 'sold_virtual_digital_assets', type: 'yes_no', title: 'Did you transfer cryptocurrency or other virtual digital assets?', requestItem: { when: true, title: 'Transaction statements from each crypto exchange or wallet' } },
          { id: 'reinvested_gains', type: 'text', title: 'Did you reinvest any gains in a house or specified bonds to claim an exemption? Please describe.' },
        ],
      },
      {
        id: 'business', title: 'Business or profession (Schedule BP)',
        questions: [
          { id: 'business_income', type: 'yes_no', title: 'Did you have income from a business or profession (including freelancing, consulting or futures and options trading)?', requestItem: { when: true, title: 'Profit and loss account and balance sheet, or turnover and receipts for the year' } },
          { id: 'presumptive_taxation', type: 'yes_no', title: 'Do you declare income on a presumptive basis (sections 44AD, 44ADA or 44AE)?', showIf: { questionId: 'business_income', equals: true } },
          { id: 'gst_registered', type: 'yes_no', title: 'Is the business registered for GST?', showIf: { questionId: 'business_income', equals: true } },
        ],
      },
      {
        id: 'other_sources', title: 'Other sources (Schedule OS)',
        questions: [
          { id: 'interest_income', type: 'yes_no', title: 'Did you earn interest on savings accounts, fixed deposits, recurring deposits, post office schemes or bonds?', requestItem: { when: true, title: 'Interest certificates from each bank and the post office' } },
          { id: 'dividend_income', type: 'yes_no', title: 'Did you receive dividends?', requestItem: { when: true, title: 'Dividend statements' } },
          { id: 'other_income', type: 'text', title: 'Any other income (gifts above the exempt limit, family pension, lottery, agricultural income)?' },
        ],
      },
      {
        id: 'deductions', title: 'Deductions (old regime)',
        description: 'The old regime allows these; the new regime (the default) allows almost none of them.',
        showIf: { questionId: 'has_old_regime_deductions', equals: true },
        questions: [
          { id: 'section_80c', type: 'yes_no', title: 'Did you invest in PPF, ELSS, life insurance, NSC, tax-saving deposits, pay children\'s tuition fees or repay home loan principal (section 80C)?', requestItem: { when: true, title: 'Proof of section 80C investments and payments' } },
          { id: 'section_80d', type: 'yes_no', title: 'Did you pay health insurance premiums or preventive health check-ups for yourself, your family or your parents (section 80D)?', requestItem: { when: true, title: 'Health insurance premium receipts (section 80D)' } },
          { id: 'pays_rent', type: 'yes_no', title: 'Did you pay rent while receiving house rent allowance (HRA exemption)?', requestItem: { when: true, title: 'Rent receipts or rent agreement, with the landlord\'s PAN if your employer asked for it' } },
          { id: 'nps_contribution', type: 'money', title: 'Your own contributions to NPS (section 80CCD)' },
          { id: 'education_loan', type: 'yes_no', title: 'Did you pay interest on an education loan (section 80E)?', requestItem: { when: true, title: 'Education loan interest certificate' } },
          { id: 'donations', type: 'yes_no', title: 'Did you donate to approved charities or funds (section 80G)?', requestItem: { when: true, title: 'Donation receipts with the charity\'s PAN and registration number' } },
        ],
      },
      {
        id: 'taxes_paid', title: 'Taxes already paid (Schedule IT)',
        questions: [
          { id: 'paid_tax_directly', type: 'yes_no', title: 'Did you pay advance tax or self-assessment tax yourself for the year?', requestItem: { when: true, title: 'Challan receipts for advance tax and self-assessment tax' } },
          { id: 'tax_challans', type: 'group', title: 'Challans', showIf: { questionId: 'paid_tax_directly', equals: true }, fields: [
            { id: 'kind', type: 'single_choice', title: 'Type', required: true, choices: ['Advance tax', 'Self-assessment tax'] },
            { id: 'date_paid', type: 'date', title: 'Date paid', required: true },
            { id: 'bsr_code', type: 'text', title: 'BSR code' },
            { id: 'challan_number', type: 'text', title: 'Challan serial number' },
            { id: 'amount', type: 'money', title: 'Amount', required: true },
          ] },
        ],
      },
      {
        id: 'bank_and_assets', title: 'Bank accounts and assets',
        questions: [
          { id: 'bank_accounts_held', type: 'group', title: 'Bank accounts in India you held at any time in the year (not dormant ones)', help: 'The return lists them all and the refund goes to one you choose.', fields: [
            { id: 'bank_name', type: 'text', title: 'Bank', required: true },
            { id: 'ifsc', type: 'text', title: 'IFSC', required: true, sensitive: true },
            { id: 'account_number', type: 'text', title: 'Account number', required: true, sensitive: true },
            { id: 'savings_or_current', type: 'single_choice', title: 'Type', choices: ['Savings', 'Current', 'Other'] },
            { id: 'refund_here', type: 'yes_no', title: 'Refund to this one?' },
          ] },
          { id: 'foreign_assets', type: 'yes_no', title: 'At any time in the calendar year ending 31 December within this financial year, did you hold assets outside India (bank accounts, shares, ESOPs, property, insurance) or signing authority over a foreign account (Schedule FA)?', help: 'Residents must report them even if they earned nothing; non-residents and RNORs need not.', requestItem: { when: true, title: 'Statements of foreign accounts, shares, ESOPs, property and other foreign assets for the calendar year' } },
          { id: 'foreign_income', type: 'yes_no', title: 'Did you earn income outside India or pay tax abroad?', requestItem: { when: true, title: 'Foreign income statements and proof of foreign tax paid' } },
          { id: 'high_income_assets', type: 'yes_no', title: 'Is your total income likely to be above the limit at which the return lists your assets and liabilities (Schedule AL)?', requestItem: { when: true, title: 'Cost of your immovable property, deposits, shares, vehicles and jewellery, and your loans, at 31 March' } },
        ],
      },
      {
        id: 'closing', title: 'Anything else',
        questions: [
          { id: 'tax_notices', type: 'yes_no', title: 'Did you receive a notice or intimation from the Income Tax Department since your last return?', requestItem: { when: true, title: 'Notices or intimations from the Income Tax Department' } },
          { id: 'anything_else', type: 'text', title: 'Anything else we should know about the year?' },
        ],
      },
    ],
  },
};
