import type { ShippedOrganizerTemplate } from './index.ts';

/*
 * UK Self Assessment checklist, reviewed against HMRC's SA100 tax return and its notes
 * (SA150): personal details (UTR, National Insurance number), income, tax reliefs (pension
 * contributions, Gift Aid), Student Loan and Postgraduate Loan repayments, the High Income
 * Child Benefit Charge, payments on account and the bank details for a repayment; and its
 * supplementary pages: SA102 Employment (P60, P45, P11D), SA103S/SA103F Self-employment,
 * SA104 Partnership, SA105 UK property, SA106 Foreign, SA108 Capital gains summary and
 * SA109 Residence.
 *
 * A checklist, shorter than the US organizer: it finds which pages the return needs and
 * which documents to ask for; the preparer works out the figures. It speaks of "the tax
 * year" (6 April to the next 5 April) and never of a year's thresholds, so it serves every
 * year.
 */

export const UK_SELF_ASSESSMENT_CHECKLIST: ShippedOrganizerTemplate = {
  builtIn: 'uk-self-assessment',
  reportTypeName: 'Self Assessment return (SA100)',
  template: {
    name: 'UK Self Assessment checklist (SA100)',
    jurisdiction: 'GB',
    description: 'For your Self Assessment tax return (SA100) for the tax year this checklist is for: the year from 6 April to the following 5 April. Each "yes" adds the document we need to your list.',
    sections: [
      {
        id: 'about_you', title: 'About you',
        questions: [
          { id: 'utr', type: 'text', title: 'Your Unique Taxpayer Reference (UTR)', help: 'The 10-digit number on letters from HMRC about Self Assessment and in your HMRC online account.', sensitive: true },
          { id: 'nino', type: 'text', title: 'Your National Insurance number', help: 'Two letters, six digits and a letter, for example QQ 12 34 56 C.', sensitive: true },
          { id: 'details_changed', type: 'yes_no', title: 'Did your name, address or marital or civil partnership status change during the tax year or since?' },
          { id: 'details_change', type: 'text', title: 'What changed, and when?', showIf: { questionId: 'details_changed', equals: true } },
          { id: 'residence_changed', type: 'yes_no', title: 'Did you live outside the UK, arrive in the UK or leave it during the tax year (SA109 Residence)?' },
        ],
      },
      {
        id: 'employment', title: 'Employment (SA102)',
        questions: [
          { id: 'employed', type: 'yes_no', title: 'Were you an employee or a company director at any time in the tax year?' },
          { id: 'employed_at_year_end', type: 'yes_no', title: 'Were you still with that employer on 5 April (so you have a P60)?', showIf: { questionId: 'employed', equals: true }, requestItem: { when: true, title: 'P60 from each employer you worked for on 5 April' } },
          { id: 'left_employment', type: 'yes_no', title: 'Did you leave a job during the tax year (P45)?', showIf: { questionId: 'employed', equals: true }, requestItem: { when: true, title: 'P45 from each job you left' } },
          { id: 'benefits_in_kind', type: 'yes_no', title: 'Did you get expenses or benefits from an employer, such as a company car or private medical insurance (P11D)?', showIf: { questionId: 'employed', equals: true }, requestItem: { when: true, title: 'P11D (expenses and benefits) from your employer' } },
          { id: 'employment_expenses', type: 'text', title: 'Work expenses your employer did not pay back (professional fees, uniform, business travel)', showIf: { questionId: 'employed', equals: true } },
        ],
      },
      {
        id: 'business_and_property', title: 'Self-employment, partnerships and property',
        questions: [
          { id: 'self_employed', type: 'yes_no', title: 'Were you self-employed as a sole trader (SA103)?', requestItem: { when: true, title: 'Business income and expenses for the accounting period (accounts, or your records)' } },
          { id: 'business_changes', type: 'text', title: 'Did the business start, stop or change its accounting date? When?', showIf: { questionId: 'self_employed', equals: true } },
          { id: 'partner', type: 'yes_no', title: 'Were you a partner in a business partnership (SA104)?', requestItem: { when: true, title: "Your share from the partnership's return (partnership statement)" } },
          { id: 'uk_property', type: 'yes_no', title: 'Did you get income from UK land or property, including renting out a room (SA105)?', requestItem: { when: true, title: 'Rents received and expenses paid for each UK property, with mortgage interest statements' } },
        ],
      },
      {
        id: 'savings_and_abroad', title: 'Savings, pensions, foreign income and gains',
        questions: [
          { id: 'uk_interest_and_dividends', type: 'yes_no', title: 'Did you get UK interest or dividends outside an ISA?', requestItem: { when: true, title: 'Interest statements and dividend vouchers' } },
          { id: 'pensions_and_benefits', type: 'yes_no', title: 'Did you get the State Pension, another pension or annuity, or taxable benefits such as Jobseeker\'s Allowance?', requestItem: { when: true, title: 'Pension P60s and the State Pension amount for the tax year' } },
          { id: 'foreign_income', type: 'yes_no', title: 'Did you have income or gains from outside the UK, such as foreign interest, dividends, pensions or rents (SA106)?', requestItem: { when: true, title: 'Statements of foreign income and any foreign tax paid' } },
          { id: 'disposed_of_assets', type: 'yes_no', title: 'Did you sell, give away or otherwise dispose of shares, cryptoassets, property (other than your home) or other assets (SA108)?', requestItem: { when: true, title: 'Purchase and sale records for each asset disposed of (dates, amounts, costs)' } },
          { id: 'uk_property_return_reference', type: 'text', title: 'If you sold UK residential property and already reported it to HMRC, the reference of that report', showIf: { questionId: 'disposed_of_assets', equals: true } },
        ],
      },
      {
        id: 'reliefs', title: 'Pension contributions and Gift Aid',
        questions: [
          { id: 'personal_pension_contributions', type: 'money', title: 'Payments you made yourself into personal or stakeholder pensions (relief at source), including the basic rate tax relief added' },
          { id: 'other_pension_contributions', type: 'text', title: 'Payments into a workplace pension not taken from your pay before tax, or into an overseas pension scheme' },
          { id: 'gift_aid', type: 'yes_no', title: 'Did you give to charity under Gift Aid?' },
          { id: 'gift_aid_amount', type: 'money', title: 'Total Gift Aid donations in the tax year (what you actually paid)', showIf: { questionId: 'gift_aid', equals: true } },
          { id: 'marriage_allowance', type: 'yes_no', title: 'Did you or your spouse or civil partner transfer part of a Personal Allowance to the other (Marriage Allowance)?' },
        ],
      },
      {
        id: 'loans_and_child_benefit', title: 'Student loans and Child Benefit',
        questions: [
          { id: 'student_loan', type: 'yes_no', title: 'Did the Student Loans Company tell you that repayments of a student loan or Postgraduate Loan began before 6 April of this tax year?' },
          { id: 'student_loan_plans', type: 'multiple_choice', title: 'Which plans?', choices: ['Plan 1', 'Plan 2', 'Plan 4', 'Plan 5', 'Postgraduate Loan', 'Not sure'], showIf: { questionId: 'student_loan', equals: true } },
          { id: 'student_loan_deducted', type: 'money', title: 'Repayments your employers took from your pay in the tax year (P60 or payslips)', showIf: { questionId: 'student_loan', equals: true } },
          { id: 'child_benefit', type: 'yes_no', title: 'Did you or your partner get Child Benefit during the tax year?', help: 'The High Income Child Benefit Charge may apply when the partner with the higher income has income above the year\'s threshold.' },
          { id: 'child_benefit_amount', type: 'money', title: 'Child Benefit received in the tax year', showIf: { questionId: 'child_benefit', equals: true } },
          { id: 'child_benefit_children', type: 'number', title: 'Number of children it was paid for on 5 April', showIf: { questionId: 'child_benefit', equals: true } },
          { id: 'child_benefit_stopped', type: 'date', title: 'If it stopped during the tax year, the date it stopped', showIf: { questionId: 'child_benefit', equals: true } },
          { id: 'higher_income_partner', type: 'yes_no', title: 'Was your income higher than your partner\'s (or had you no partner)?', showIf: { questionId: 'child_benefit', equals: true } },
        ],
      },
      {
        id: 'payments', title: 'Payments and repayment',
        questions: [
          { id: 'made_advance_payments', type: 'yes_no', title: 'Did you make payments on account towards this tax year\'s bill?', help: 'Normally due on 31 January in the tax year and 31 July after it; your HMRC online account lists them.' },
          { id: 'january_payment', type: 'money', title: 'First payment on account (January)', showIf: { questionId: 'made_advance_payments', equals: true } },
          { id: 'july_payment', type: 'money', title: 'Second payment on account (July)', showIf: { questionId: 'made_advance_payments', equals: true } },
          { id: 'reduced_advance_payments', type: 'yes_no', title: 'Did you ask HMRC to reduce those payments?', showIf: { questionId: 'made_advance_payments', equals: true } },
          { id: 'tax_code_collection', type: 'yes_no', title: 'If you owe a small amount, may HMRC collect it through your PAYE tax code next year?' },
          { id: 'repayment_to_bank', type: 'yes_no', title: 'If HMRC owes you a repayment, should it go to a UK bank or building society account?' },
          { id: 'bank_holder_name', type: 'text', title: 'Name of the account holder', showIf: { questionId: 'repayment_to_bank', equals: true } },
          { id: 'sort_code', type: 'text', title: 'Sort code', sensitive: true, showIf: { questionId: 'repayment_to_bank', equals: true } },
          { id: 'bank_account_number', type: 'text', title: 'Account number', sensitive: true, showIf: { questionId: 'repayment_to_bank', equals: true } },
          { id: 'building_society_reference', type: 'text', title: 'Building society reference (if any)', sensitive: true, showIf: { questionId: 'repayment_to_bank', equals: true } },
        ],
      },
      {
        id: 'closing', title: 'Anything else',
        questions: [
          { id: 'hmrc_letters', type: 'yes_no', title: 'Did you get a letter from HMRC about this tax year (a tax calculation, a penalty, a change to your tax code)?', requestItem: { when: true, title: 'Letters from HMRC about the tax year' } },
          { id: 'anything_else', type: 'text', title: 'Anything else we should know about the tax year?' },
        ],
      },
    ],
  },
};
