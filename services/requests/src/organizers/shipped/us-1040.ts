import type { ShippedOrganizerTemplate } from './index.ts';

/*
 * US individual income tax organizer (Form 1040), reviewed against the IRS's Form 1040 and
 * its instructions (filing status, the digital asset question on page 1, dependents, refund
 * by direct deposit, Identity Protection PIN), Schedules 1–3 and their instructions
 * (additional income and adjustments; additional taxes; credits), Schedule 1-A (additional
 * deductions), Schedule A (itemized deductions), Schedule B (interest, dividends, foreign
 * accounts), Schedule C, Schedule E, Form 2441 (care provider's name, address and TIN),
 * Form 8863 (education credits, Form 1098-T), Form 5695 (residential energy credits),
 * Form 8889 (HSA: Forms 5498-SA and 1099-SA), Form 8962 (premium tax credit: Form 1095-A)
 * and Form 1040-ES (four estimated payments).
 *
 * It speaks of "the year" and never of a year's amounts or limits, so the same template
 * serves every year; what changes by year (which credits still exist, each limit) is the
 * preparer's to apply. The ids filing_status, dependants (with its fields) and
 * received_1099_b are kept stable: browser tests and last year's answers rely on them.
 * Most questions are optional on purpose: a client who does not know says so in the last
 * question and the firm follows up, instead of being stopped at a page.
 */

const MARRIED_JOINTLY = 'Married filing jointly';
const MARRIED_SEPARATELY = 'Married filing separately';

export const US_1040_ORGANIZER: ShippedOrganizerTemplate = {
  builtIn: 'us-1040',
  reportTypeName: 'Form 1040',
  template: {
    name: 'US individual income tax organizer (Form 1040)',
    jurisdiction: 'US',
    description: 'Questions for the individual income tax return (Form 1040) of the year this organizer is for. Answer what you can; upload or send the documents each "yes" asks for.',
    sections: [
      {
        id: 'household', title: 'You and your household',
        questions: [
          { id: 'filing_status', type: 'single_choice', title: 'Filing status you expect', required: true, choices: ['Single', MARRIED_JOINTLY, MARRIED_SEPARATELY, 'Head of household', 'Qualifying surviving spouse'], help: 'Your status on the last day of the year decides it. Not sure? Pick the closest and tell us in the last question.' },
          { id: 'spouse_full_name', type: 'text', title: "Spouse's full name", required: true, showIf: { questionId: 'filing_status', equals: MARRIED_JOINTLY } },
          { id: 'spouse_ssn', type: 'text', title: "Spouse's Social Security number (or ITIN)", required: true, sensitive: true, showIf: { questionId: 'filing_status', equals: MARRIED_JOINTLY } },
          { id: 'spouse_date_of_birth', type: 'date', title: "Spouse's date of birth", showIf: { questionId: 'filing_status', equals: MARRIED_JOINTLY } },
          { id: 'spouse_occupation', type: 'text', title: "Spouse's occupation", showIf: { questionId: 'filing_status', equals: MARRIED_JOINTLY } },
          { id: 'spouse_blind', type: 'yes_no', title: 'Is your spouse blind?', showIf: { questionId: 'filing_status', equals: MARRIED_JOINTLY } },
          { id: 'spouse_claimed_as_dependant', type: 'yes_no', title: 'Can someone claim your spouse as a dependent?', showIf: { questionId: 'filing_status', equals: MARRIED_JOINTLY } },
          { id: 'separate_spouse_full_name', type: 'text', title: "Spouse's full name (a separate return still names your spouse)", required: true, showIf: { questionId: 'filing_status', equals: MARRIED_SEPARATELY } },
          { id: 'separate_spouse_ssn', type: 'text', title: "Spouse's Social Security number (or ITIN)", sensitive: true, showIf: { questionId: 'filing_status', equals: MARRIED_SEPARATELY } },
          { id: 'marital_status_changed', type: 'yes_no', title: 'Did your marital status change during the year?' },
          { id: 'marital_change', type: 'single_choice', title: 'What changed?', choices: ['Married', 'Divorced or legally separated', 'Spouse died'], showIf: { questionId: 'marital_status_changed', equals: true } },
          { id: 'marital_change_date', type: 'date', title: 'Date of the change', showIf: { questionId: 'marital_status_changed', equals: true } },
          { id: 'marital_change_documents', type: 'yes_no', title: 'Is there a divorce decree or separation agreement we should read (for support payments or who claims the children)?', showIf: { questionId: 'marital_status_changed', equals: true }, requestItem: { when: true, title: 'Divorce decree or separation agreement' } },
          { id: 'occupation', type: 'text', title: 'Your occupation' },
          { id: 'blind', type: 'yes_no', title: 'Are you blind?' },
          { id: 'claimed_as_dependant', type: 'yes_no', title: "Can someone (a parent, for example) claim you as a dependent on their return?" },
          { id: 'address_changed', type: 'yes_no', title: 'Did your home address change during the year or since?' },
          { id: 'new_address', type: 'text', title: 'New address', required: true, showIf: { questionId: 'address_changed', equals: true } },
          { id: 'moved_on', type: 'date', title: 'Date you moved', showIf: { questionId: 'address_changed', equals: true } },
          { id: 'lived_in_more_than_one_state', type: 'yes_no', title: 'Did you live or work in more than one state during the year?' },
          { id: 'states_and_dates', type: 'text', title: 'Which states, and from when to when?', showIf: { questionId: 'lived_in_more_than_one_state', equals: true } },
          { id: 'dependants', type: 'group', title: 'Dependents', help: 'Children and other relatives you supported. Add one row each; include a child born or adopted during the year.', fields: [
            { id: 'name', type: 'text', title: 'Full name', required: true },
            { id: 'date_of_birth', type: 'date', title: 'Date of birth', required: true },
            { id: 'relationship', type: 'text', title: 'Relationship to you', required: true },
            { id: 'ssn', type: 'text', title: 'SSN or ITIN', sensitive: true },
            { id: 'months_lived_with_you', type: 'number', title: 'Months lived with you' },
            { id: 'full_time_student', type: 'yes_no', title: 'Full-time student during the year?' },
            { id: 'permanently_disabled', type: 'yes_no', title: 'Permanently and totally disabled?' },
          ] },
        ],
      },
      {
        id: 'income', title: 'Income',
        description: 'Each "yes" adds the matching document to your list of documents to upload.',
        questions: [
          { id: 'received_w2', type: 'yes_no', title: 'Did you (or your spouse) work for an employer (Form W-2)?', requestItem: { when: true, title: 'Form W-2 from each employer' } },
          { id: 'received_tips_or_overtime', type: 'yes_no', title: 'Were you paid tips, or overtime at more than your regular rate?', help: 'Some years allow a deduction for qualified tips and overtime (Schedule 1-A); pay stubs or employer statements show the amounts.', requestItem: { when: true, title: 'Records of tips and overtime pay (pay stubs or employer statement)' } },
          { id: 'received_1099_nec', type: 'yes_no', title: 'Were you paid as an independent contractor or freelancer (Form 1099-NEC)?', requestItem: { when: true, title: 'Form 1099-NEC from each payer' } },
          { id: 'received_1099_k', type: 'yes_no', title: 'Did a payment app, card processor or online marketplace send you Form 1099-K?', requestItem: { when: true, title: 'Form 1099-K' } },
          { id: 'received_1099_misc', type: 'yes_no', title: 'Did you receive Form 1099-MISC (rents, royalties, prizes or other income)?', requestItem: { when: true, title: 'Form 1099-MISC' } },
          { id: 'had_business', type: 'yes_no', title: 'Did you run a business or side business of your own (Schedule C)?', requestItem: { when: true, title: 'Business income and expenses for the year (profit and loss, or your own summary)' } },
          { id: 'business_description', type: 'text', title: 'What does the business do, and did it start or stop during the year?', showIf: { questionId: 'had_business', equals: true } },
          { id: 'received_1099_int', type: 'yes_no', title: 'Did you receive interest (Form 1099-INT)?', requestItem: { when: true, title: 'Form 1099-INT from each bank or payer' } },
          { id: 'received_1099_div', type: 'yes_no', title: 'Did you receive dividends (Form 1099-DIV)?', requestItem: { when: true, title: 'Form 1099-DIV from each payer' } },
          { id: 'received_1099_b', type: 'yes_no', title: 'Did you sell stocks, bonds or other investments (Form 1099-B)?', required: true, requestItem: { when: true, title: '1099-B from your broker' } },
          { id: 'digital_assets', type: 'yes_no', title: 'At any time during the year, did you (a) receive (as a reward, award or payment for property or services), or (b) sell, exchange or otherwise dispose of a digital asset (or a financial interest in a digital asset)?', help: 'The same question Form 1040 asks on page 1. Digital assets include cryptocurrency, stablecoins and NFTs.', requestItem: { when: true, title: 'Digital asset records: Form 1099-DA or the exchange\'s statements, with what you paid for each asset sold' } },
          { id: 'received_1099_r', type: 'yes_no', title: 'Did you take money out of a pension, annuity, IRA or 401(k) (Form 1099-R)?', requestItem: { when: true, title: 'Form 1099-R for each distribution' } },
          { id: 'rolled_over', type: 'yes_no', title: 'Was any of it rolled over or converted to a Roth IRA?', showIf: { questionId: 'received_1099_r', equals: true } },
          { id: 'received_ssa_1099', type: 'yes_no', title: 'Did you receive Social Security benefits (Form SSA-1099)?', requestItem: { when: true, title: 'Form SSA-1099' } },
          { id: 'received_1099_g', type: 'yes_no', title: 'Did you receive unemployment compensation or a state or local tax refund (Form 1099-G)?', requestItem: { when: true, title: 'Form 1099-G' } },
          { id: 'received_k1', type: 'yes_no', title: 'Are you a partner, S corporation shareholder or beneficiary of an estate or trust (Schedule K-1)?', requestItem: { when: true, title: 'Schedule K-1 from each partnership, S corporation, estate or trust' } },
          { id: 'had_rental', type: 'yes_no', title: 'Did you rent out a property (Schedule E)?', requestItem: { when: true, title: 'Rental income and expenses for each property' } },
          { id: 'rental_properties', type: 'group', title: 'Rental properties', showIf: { questionId: 'had_rental', equals: true }, fields: [
            { id: 'address', type: 'text', title: 'Address', required: true },
            { id: 'days_rented', type: 'number', title: 'Days rented at a fair rent' },
            { id: 'days_personal_use', type: 'number', title: 'Days of personal use' },
            { id: 'bought_or_sold', type: 'yes_no', title: 'Bought or sold during the year?' },
          ] },
          { id: 'received_w2g', type: 'yes_no', title: 'Did you have gambling winnings (Form W-2G)?', requestItem: { when: true, title: 'Form W-2G' } },
          { id: 'foreign_accounts', type: 'yes_no', title: 'At any time during the year, did you have a financial account (bank, securities or other) in a foreign country, or signature authority over one?', help: 'Schedule B asks this; such accounts may also need an FBAR.', requestItem: { when: true, title: 'Statements of your foreign financial accounts (highest balance in the year)' } },
          { id: 'other_income', type: 'text', title: 'Any other income (alimony under an older divorce agreement, jury duty, prizes, income from abroad)?' },
        ],
      },
      {
        id: 'adjustments_deductions', title: 'Adjustments and deductions',
        questions: [
          { id: 'hsa_contributions', type: 'yes_no', title: 'Did you or your employer put money into a health savings account (Form 5498-SA)?', requestItem: { when: true, title: 'Form 5498-SA for your HSA' } },
          { id: 'hsa_distributions', type: 'yes_no', title: 'Did you take money out of an HSA (Form 1099-SA)?', requestItem: { when: true, title: 'Form 1099-SA for your HSA' } },
          { id: 'ira_contributions', type: 'money', title: 'Contributions to a traditional IRA for the year (not through an employer)' },
          { id: 'educator_expenses', type: 'money', title: 'Classroom expenses you paid as a K–12 teacher or educator' },
          { id: 'self_employed_health_insurance', type: 'money', title: 'Health insurance premiums you paid as a self-employed person', showIf: { questionId: 'had_business', equals: true } },
          { id: 'paid_student_loan_interest', type: 'yes_no', title: 'Did you pay interest on a student loan (Form 1098-E)?', requestItem: { when: true, title: 'Form 1098-E from your student loan servicer' } },
          { id: 'received_1098_t', type: 'yes_no', title: 'Did you, your spouse or a dependent pay tuition to a college or other school (Form 1098-T)?', requestItem: { when: true, title: 'Form 1098-T from each school' } },
          { id: 'paid_mortgage_interest', type: 'yes_no', title: 'Did you pay mortgage interest on your home (Form 1098)?', requestItem: { when: true, title: 'Form 1098 from your mortgage lender' } },
          { id: 'refinanced_or_bought_home', type: 'yes_no', title: 'Did you buy, sell or refinance a home during the year?', requestItem: { when: true, title: 'Closing statement for the purchase, sale or refinance' } },
          { id: 'paid_car_loan_interest', type: 'yes_no', title: 'Did you pay interest on a loan for a new personal car, SUV, van, pickup or motorcycle?', help: 'Some years allow a deduction for this interest (Schedule 1-A) when the vehicle qualifies; the loan statement shows the interest and the vehicle\'s VIN.', requestItem: { when: true, title: 'Car loan interest statement (with the vehicle\'s VIN)' } },
          { id: 'property_tax', type: 'money', title: 'Real estate (property) taxes you paid on your home and other personal property' },
          { id: 'charitable_cash', type: 'money', title: 'Gifts of money to charities' },
          { id: 'charitable_non_cash', type: 'yes_no', title: 'Did you give clothing, goods, vehicles, securities or other property to charity?', requestItem: { when: true, title: 'Receipts or acknowledgements for charitable gifts of property' } },
          { id: 'charitable_receipts', type: 'yes_no', title: 'Do you have receipts or written acknowledgements for your gifts of money?', requestItem: { when: true, title: 'Receipts or acknowledgements for charitable gifts of money' } },
          { id: 'medical_expenses', type: 'money', title: 'Medical and dental expenses you paid that insurance did not (including premiums you paid yourself)' },
          { id: 'other_deductions', type: 'text', title: 'Other deductions you think apply (casualty losses, gambling losses, investment expenses)' },
        ],
      },
      {
        id: 'credits', title: 'Credits',
        questions: [
          { id: 'paid_child_care', type: 'yes_no', title: 'Did you pay someone to care for a child under 13 or a dependent who cannot care for themselves, so that you could work or look for work (Form 2441)?' },
          { id: 'care_providers', type: 'group', title: 'Care providers', help: 'Form 2441 needs each provider\'s name, address and taxpayer identification number (EIN, or SSN for a person).', showIf: { questionId: 'paid_child_care', equals: true }, fields: [
            { id: 'provider_name', type: 'text', title: 'Provider name', required: true },
            { id: 'provider_address', type: 'text', title: 'Provider address' },
            { id: 'provider_tin', type: 'text', title: 'Provider EIN or SSN', sensitive: true },
            { id: 'amount_paid', type: 'money', title: 'Amount paid in the year' },
          ] },
          { id: 'dependent_care_benefits', type: 'yes_no', title: 'Did your employer pay or reimburse any of it (dependent care benefits on your W-2)?', showIf: { questionId: 'paid_child_care', equals: true } },
          { id: 'education_expenses', type: 'yes_no', title: 'Did you pay for books, supplies or course materials required for college courses (education credits, Form 8863)?', requestItem: { when: true, title: 'Receipts for required books, supplies and course materials' } },
          { id: 'education_student', type: 'text', title: 'For whom (you, your spouse or which dependent), and which school and year of study?', showIf: { questionId: 'education_expenses', equals: true } },
          { id: 'energy_improvements', type: 'yes_no', title: 'Did you install solar panels, a heat pump, insulation, energy-efficient windows or doors, or similar at your home (Form 5695)?', help: 'Whether a credit still applies depends on the year and the date the work was done; we check.', requestItem: { when: true, title: 'Invoices and manufacturer certifications for the energy improvements' } },
          { id: 'clean_vehicle', type: 'yes_no', title: 'Did you buy an electric or other clean vehicle, new or used?', help: 'Whether a credit applies depends on when you bought it; we check.', requestItem: { when: true, title: 'Purchase agreement and the seller\'s clean vehicle report' } },
          { id: 'adopted_child', type: 'yes_no', title: 'Did you pay expenses to adopt a child?', requestItem: { when: true, title: 'Adoption expenses and the adoption decree or agreement' } },
        ],
      },
      {
        id: 'estimated_payments', title: 'Estimated tax payments',
        questions: [
          { id: 'made_estimated_payments', type: 'yes_no', title: 'Did you make federal estimated tax payments for the year (Form 1040-ES)?' },
          { id: 'estimated_q1_amount', type: 'money', title: 'First payment (due in April): amount', showIf: { questionId: 'made_estimated_payments', equals: true } },
          { id: 'estimated_q1_date', type: 'date', title: 'First payment: date paid', showIf: { questionId: 'made_estimated_payments', equals: true } },
          { id: 'estimated_q2_amount', type: 'money', title: 'Second payment (due in June): amount', showIf: { questionId: 'made_estimated_payments', equals: true } },
          { id: 'estimated_q2_date', type: 'date', title: 'Second payment: date paid', showIf: { questionId: 'made_estimated_payments', equals: true } },
          { id: 'estimated_q3_amount', type: 'money', title: 'Third payment (due in September): amount', showIf: { questionId: 'made_estimated_payments', equals: true } },
          { id: 'estimated_q3_date', type: 'date', title: 'Third payment: date paid', showIf: { questionId: 'made_estimated_payments', equals: true } },
          { id: 'estimated_q4_amount', type: 'money', title: 'Fourth payment (due in January of the next year): amount', showIf: { questionId: 'made_estimated_payments', equals: true } },
          { id: 'estimated_q4_date', type: 'date', title: 'Fourth payment: date paid', showIf: { questionId: 'made_estimated_payments', equals: true } },
          { id: 'prior_year_overpayment_applied', type: 'money', title: "Last year's refund you applied to this year's estimated tax" },
          { id: 'state_estimated_payments', type: 'group', title: 'State or local estimated payments', fields: [
            { id: 'state', type: 'text', title: 'State or locality', required: true },
            { id: 'date_paid', type: 'date', title: 'Date paid' },
            { id: 'amount', type: 'money', title: 'Amount' },
          ] },
        ],
      },
      {
        id: 'health_coverage', title: 'Health coverage',
        questions: [
          { id: 'received_1095_a', type: 'yes_no', title: 'Did you or anyone in your household have health insurance through the Health Insurance Marketplace (Form 1095-A)?', help: 'Marketplace coverage is reconciled on Form 8962, which needs Form 1095-A.', requestItem: { when: true, title: 'Form 1095-A (Health Insurance Marketplace Statement)' } },
          { id: 'coverage_changes', type: 'text', title: 'Did your household, income or coverage change during the year in a way the Marketplace may not know about?', showIf: { questionId: 'received_1095_a', equals: true } },
        ],
      },
      {
        id: 'refund_and_payment', title: 'Refund or balance due',
        questions: [
          { id: 'refund_choice', type: 'single_choice', title: 'If you get a refund, how would you like it?', choices: ['Direct deposit to my bank account', "Apply it to next year's estimated tax", 'Part deposited, part applied to next year'] },
          { id: 'balance_due_choice', type: 'single_choice', title: 'If you owe tax, how would you like to pay?', choices: ['Direct debit from my bank account on a date I choose', 'I will pay the IRS online myself', 'Please talk to me about a payment plan'] },
          { id: 'use_bank_account', type: 'yes_no', title: 'Should we use a bank account for a direct deposit or a direct debit?' },
          { id: 'bank_name', type: 'text', title: 'Bank name', showIf: { questionId: 'use_bank_account', equals: true } },
          { id: 'bank_routing_number', type: 'text', title: 'Routing number (9 digits)', required: true, sensitive: true, showIf: { questionId: 'use_bank_account', equals: true } },
          { id: 'bank_account_number', type: 'text', title: 'Account number', required: true, sensitive: true, showIf: { questionId: 'use_bank_account', equals: true } },
          { id: 'checking_or_savings', type: 'single_choice', title: 'Type', required: true, choices: ['Checking', 'Savings'], showIf: { questionId: 'use_bank_account', equals: true } },
        ],
      },
      {
        id: 'identity', title: 'Identity protection',
        questions: [
          { id: 'identity_protection_pin_issued', type: 'yes_no', title: 'Did the IRS give you (or your spouse or a dependent) an Identity Protection PIN?', help: 'A new six-digit IP PIN comes every year (by letter CP01A or in your IRS online account); the return needs the current one.' },
          { id: 'ip_pin', type: 'text', title: 'Your Identity Protection PIN', sensitive: true, showIf: { questionId: 'identity_protection_pin_issued', equals: true } },
          { id: 'spouse_ip_pin', type: 'text', title: "Your spouse's Identity Protection PIN (joint return only)", sensitive: true, showIf: { questionId: 'identity_protection_pin_issued', equals: true } },
          { id: 'dependant_ip_pins', type: 'text', title: "Dependents' Identity Protection PINs (name and PIN)", sensitive: true, showIf: { questionId: 'identity_protection_pin_issued', equals: true } },
          { id: 'received_irs_letters', type: 'yes_no', title: 'Did you receive a letter or notice from the IRS or a state tax agency since your last return?', requestItem: { when: true, title: 'Letters or notices from the IRS or your state' } },
        ],
      },
      {
        id: 'closing', title: 'Anything else',
        questions: [
          { id: 'prior_year_return', type: 'file', title: "Last year's return, if we did not prepare it" },
          { id: 'anything_else', type: 'text', title: 'Anything else we should know about the year (a new job, a home sale, a birth, a move, a big purchase, a question for us)?' },
        ],
      },
    ],
  },
};
