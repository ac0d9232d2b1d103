import type { ShippedOrganizerTemplate } from './index.ts';

/*
 * Australian individual income tax return checklist, reviewed against the ATO's individual
 * tax return instructions (the Individual tax return instructions and the supplementary
 * section's instructions): tax file number, income statements from employers (Single Touch
 * Payroll, seen in myGov), government payments, interest, dividends, distributions from
 * managed funds (annual tax statements), capital gains, foreign income, the rental property
 * schedule, work-related deductions (car, clothing, self-education, working from home),
 * gifts, personal super contributions (notice of intent), the Medicare levy exemption and
 * surcharge with the private health insurance statement, spouse details, study and training
 * loans (HELP and others), and the bank account for a refund.
 *
 * A checklist, shorter than the US organizer; it speaks of "the income year" (1 July to the
 * next 30 June) and never of a year's rates or thresholds, so it serves every year.
 */

export const AU_INDIVIDUAL_CHECKLIST: ShippedOrganizerTemplate = {
  builtIn: 'au-individual',
  reportTypeName: 'Income tax return (individual)',
  template: {
    name: 'Australian individual tax return checklist',
    jurisdiction: 'AU',
    description: 'For your individual tax return for the income year this checklist is for: 1 July to the following 30 June. Each "yes" adds the document we need to your list.',
    sections: [
      {
        id: 'about_you', title: 'About you',
        questions: [
          { id: 'tfn', type: 'text', title: 'Your tax file number (TFN)', sensitive: true },
          { id: 'details_changed', type: 'yes_no', title: 'Did your name, address, email or phone change since your last return?' },
          { id: 'details_change', type: 'text', title: 'What changed?', showIf: { questionId: 'details_changed', equals: true } },
          { id: 'resident_all_year', type: 'yes_no', title: 'Were you an Australian resident for tax purposes for the whole income year?' },
          { id: 'residency_dates', type: 'text', title: 'When did you arrive in or leave Australia?', showIf: { questionId: 'resident_all_year', equals: false } },
          { id: 'had_spouse', type: 'yes_no', title: 'Did you have a spouse (married or de facto) at any time in the income year?' },
          { id: 'spouse_name', type: 'text', title: "Spouse's full name", showIf: { questionId: 'had_spouse', equals: true } },
          { id: 'spouse_date_of_birth', type: 'date', title: "Spouse's date of birth", showIf: { questionId: 'had_spouse', equals: true } },
          { id: 'spouse_whole_year', type: 'yes_no', title: 'Was that person your spouse for the whole income year?', showIf: { questionId: 'had_spouse', equals: true } },
          { id: 'spouse_period', type: 'text', title: 'From when to when?', showIf: { questionId: 'spouse_whole_year', equals: false } },
          { id: 'spouse_taxable_income', type: 'money', title: "Spouse's taxable income for the income year (an estimate is fine)", showIf: { questionId: 'had_spouse', equals: true } },
          { id: 'dependent_children', type: 'number', title: 'Number of dependent children' },
        ],
      },
      {
        id: 'income', title: 'Income',
        questions: [
          { id: 'employed', type: 'yes_no', title: 'Did you work as an employee during the income year?', help: 'Employers report your pay to the ATO; your income statement in myGov (ATO online services) shows it, marked "Tax ready" once final.', requestItem: { when: true, title: 'Income statements from your employers (from myGov), or payment summaries' } },
          { id: 'government_payments', type: 'yes_no', title: 'Did you receive Centrelink or other Australian Government payments (JobSeeker, Youth Allowance, pensions)?' },
          { id: 'bank_interest', type: 'yes_no', title: 'Did you earn interest from bank accounts or term deposits?', requestItem: { when: true, title: 'Interest statements for the income year' } },
          { id: 'dividends', type: 'yes_no', title: 'Did you receive dividends from shares?', requestItem: { when: true, title: 'Dividend statements (showing franking credits)' } },
          { id: 'managed_funds', type: 'yes_no', title: 'Did you have units in managed funds or ETFs, or receive a trust or partnership distribution?', requestItem: { when: true, title: 'Annual tax statement from each managed fund or trust' } },
          { id: 'capital_gains', type: 'yes_no', title: 'Did you sell or dispose of shares, crypto, property or other assets?', requestItem: { when: true, title: 'Purchase and sale records for each asset sold (dates, amounts, costs)' } },
          { id: 'foreign_income', type: 'yes_no', title: 'Did you have income from overseas or foreign pensions?', requestItem: { when: true, title: 'Foreign income statements and proof of foreign tax paid' } },
          { id: 'rental_property', type: 'yes_no', title: 'Did you own a rental property (rental property schedule)?', requestItem: { when: true, title: 'Rental income and expenses for each property (agent statements, loan interest, rates, repairs)' } },
          { id: 'rental_properties', type: 'group', title: 'Rental properties', showIf: { questionId: 'rental_property', equals: true }, fields: [
            { id: 'address', type: 'text', title: 'Address', required: true },
            { id: 'ownership_share', type: 'number', title: 'Your ownership share (%)' },
            { id: 'weeks_rented', type: 'number', title: 'Weeks rented in the income year' },
            { id: 'bought_or_sold', type: 'yes_no', title: 'Bought or sold in the income year?' },
          ] },
          { id: 'business_income', type: 'yes_no', title: 'Did you run a business or work as a sole trader (an ABN)?', requestItem: { when: true, title: 'Business income and expenses for the income year' } },
        ],
      },
      {
        id: 'deductions', title: 'Deductions',
        questions: [
          { id: 'work_car', type: 'yes_no', title: 'Did you use your own car for work (not travel between home and work)?', requestItem: { when: true, title: 'Car expense records: a logbook, or a record of work kilometres' } },
          { id: 'work_clothing', type: 'yes_no', title: 'Did you buy or clean a uniform, protective or occupation-specific clothing?', requestItem: { when: true, title: 'Receipts for work clothing and its laundry' } },
          { id: 'self_education', type: 'yes_no', title: 'Did you pay for study connected to your current work (self-education)?', requestItem: { when: true, title: 'Receipts for course fees, books and other self-education costs' } },
          { id: 'working_from_home', type: 'yes_no', title: 'Did you work from home?', requestItem: { when: true, title: 'Record of the hours you worked from home and your running expenses (phone, internet, energy)' } },
          { id: 'other_work_expenses', type: 'text', title: 'Other work expenses (tools, union fees, work travel, phone)' },
          { id: 'donations', type: 'yes_no', title: 'Did you give to registered charities (gifts of $2 or more to deductible gift recipients)?', requestItem: { when: true, title: 'Donation receipts' } },
          { id: 'personal_super_contributions', type: 'yes_no', title: 'Did you make personal super contributions you want to deduct?', requestItem: { when: true, title: "Your super fund's acknowledgement of your notice of intent to claim a deduction" } },
          { id: 'tax_agent_fees', type: 'money', title: 'Fees paid for managing your tax affairs in the income year (last year\'s tax agent fee)' },
        ],
      },
      {
        id: 'health_and_loans', title: 'Health cover, Medicare and study loans',
        questions: [
          { id: 'private_health_insurance', type: 'yes_no', title: 'Did you have private health insurance at any time in the income year?', help: 'Insurers report your cover to the ATO; we use the statement to check the rebate and the Medicare levy surcharge.', requestItem: { when: true, title: 'Private health insurance statement' } },
          { id: 'hospital_cover_whole_year', type: 'yes_no', title: 'Did you (and your spouse and dependants) have private hospital cover for the whole income year?', showIf: { questionId: 'private_health_insurance', equals: true } },
          { id: 'medicare_levy_exemption', type: 'yes_no', title: 'Might you be exempt from the Medicare levy (for example not entitled to Medicare as a foreign resident, or a medical exemption)?' },
          { id: 'medicare_exemption_reason', type: 'single_choice', title: 'Why?', choices: ['Not entitled to Medicare benefits', 'Foreign resident for tax purposes', 'Medical exemption (for example blind pensioner)', 'Not sure'], showIf: { questionId: 'medicare_levy_exemption', equals: true } },
          { id: 'medicare_entitlement_statement', type: 'yes_no', title: 'Do you have a Medicare Entitlement Statement from Services Australia?', showIf: { questionId: 'medicare_levy_exemption', equals: true }, requestItem: { when: true, title: 'Medicare Entitlement Statement' } },
          { id: 'study_loan', type: 'yes_no', title: 'Do you have a HELP or other study or training loan?' },
          { id: 'study_loan_kinds', type: 'multiple_choice', title: 'Which?', choices: ['HELP (HECS-HELP, FEE-HELP and others)', 'VET Student Loan', 'Student Start-up Loan (or ABSTUDY SSL)', 'Australian Apprenticeship Support Loan', 'Other or not sure'], showIf: { questionId: 'study_loan', equals: true } },
        ],
      },
      {
        id: 'refund', title: 'Refund',
        questions: [
          { id: 'refund_bank', type: 'yes_no', title: 'Should a refund go to an Australian bank account other than the one the ATO has?' },
          { id: 'bsb', type: 'text', title: 'BSB', sensitive: true, showIf: { questionId: 'refund_bank', equals: true } },
          { id: 'bank_account_number', type: 'text', title: 'Account number', sensitive: true, showIf: { questionId: 'refund_bank', equals: true } },
          { id: 'bank_holder_name', type: 'text', title: 'Name of the account holder', showIf: { questionId: 'refund_bank', equals: true } },
        ],
      },
      {
        id: 'closing', title: 'Anything else',
        questions: [
          { id: 'ato_letters', type: 'yes_no', title: 'Did you receive a letter from the ATO since your last return (an amended assessment, a debt, an audit)?', requestItem: { when: true, title: 'Letters from the ATO' } },
          { id: 'anything_else', type: 'text', title: 'Anything else we should know about the income year?' },
        ],
      },
    ],
  },
};
