import { describe, expect, it } from '@jest/globals';
import { entryFits, type CompliancePreset } from '@ledgerline/contracts/compliance.contracts.ts';
import type { ClientRegistration } from '@ledgerline/contracts/directory.contracts.ts';
import { nextBusinessDay } from '../src/calendar/business-days.ts';
import { entryPeriods, extendedDueDate, type ClientFacts } from '../src/presets/entry-periods.ts';
import { PRESETS } from '../src/presets/preset.catalog.ts';

/*
 * The statutory calendars against the official tables (issue 39), for periods in 2026 and due
 * dates in 2026–2027. Each row: calendar/entry, the client (year end, State), the period's label,
 * its first and last day, the statute's day, the day it is due after the next-business-day rule,
 * and the source the row was read from (not the calendar data: the agency's table).
 */
type Row = {
  entry: string; client?: Partial<ClientFacts>; label: string; start: string; end: string; statutory: string; due: string;
  reason?: string; extended?: string; source: string;
};

const preset = (id: string) => PRESETS.find((p) => p.id === id)!;
const facts = (c: Partial<ClientFacts> = {}): ClientFacts => ({ fiscalYearEnd: c.fiscalYearEnd ?? null, state: c.state ?? null });

function check(calendar: string, row: Row) {
  const p = preset(calendar);
  const entry = p.entries.find((e) => e.id === row.entry)!;
  expect(entry).toBeDefined();
  const year = Number(row.statutory.slice(0, 4));
  const { periods } = entryPeriods(p, entry, facts(row.client), year);
  const found = periods.find((x) => x.statutoryDueDate === row.statutory);
  expect(found && { label: found.label, start: found.start, end: found.end, statutory: found.statutoryDueDate, due: found.dueDate })
    .toEqual({ label: row.label, start: row.start, end: row.end, statutory: row.statutory, due: row.due });
  if (row.reason) expect(found!.dueDateReason).toBe(row.reason);
  if (row.due === row.statutory) expect(found!.dueDateReason).toBeNull();
  if (row.extended) expect(extendedDueDate(p, entry, facts(row.client), found!.start, found!.statutoryDueDate!)).toBe(row.extended);
}

const P509 = 'IRS Publication 509 (2026 and 2027), Tax Calendars; IRC §7503';
const US: Row[] = [
  { entry: 'form-941', label: 'Q4 2025', start: '2025-10-01', end: '2025-12-31', statutory: '2026-01-31', due: '2026-02-02', reason: '31 Jan 2026 is a Saturday', source: P509 },
  { entry: 'form-941', label: 'Q1 2026', start: '2026-01-01', end: '2026-03-31', statutory: '2026-04-30', due: '2026-04-30', source: P509 },
  { entry: 'form-941', label: 'Q2 2026', start: '2026-04-01', end: '2026-06-30', statutory: '2026-07-31', due: '2026-07-31', source: P509 },
  { entry: 'form-941', label: 'Q3 2026', start: '2026-07-01', end: '2026-09-30', statutory: '2026-10-31', due: '2026-11-02', reason: '31 Oct 2026 is a Saturday', source: P509 },
  { entry: 'form-941', label: 'Q4 2026', start: '2026-10-01', end: '2026-12-31', statutory: '2027-01-31', due: '2027-02-01', reason: '31 Jan 2027 is a Sunday', source: P509 },
  { entry: 'form-941', label: 'Q2 2027', start: '2027-04-01', end: '2027-06-30', statutory: '2027-07-31', due: '2027-08-02', source: P509 },
  { entry: 'form-941', label: 'Q3 2027', start: '2027-07-01', end: '2027-09-30', statutory: '2027-10-31', due: '2027-11-01', source: P509 },
  { entry: 'form-940', label: '2026', start: '2026-01-01', end: '2026-12-31', statutory: '2027-01-31', due: '2027-02-01', reason: '31 Jan 2027 is a Sunday', source: 'Instructions for Form 940 (2026)' },
  { entry: 'form-w-2', label: '2026', start: '2026-01-01', end: '2026-12-31', statutory: '2027-01-31', due: '2027-02-01', source: 'General Instructions for Forms W-2 and W-3 (2026)' },
  { entry: 'form-1099-nec', label: '2026', start: '2026-01-01', end: '2026-12-31', statutory: '2027-01-31', due: '2027-02-01', source: 'Instructions for Forms 1099-MISC and 1099-NEC (2026)' },
  { entry: 'form-1099-misc', label: '2026', start: '2026-01-01', end: '2026-12-31', statutory: '2027-03-31', due: '2027-03-31', source: 'Instructions for Forms 1099-MISC and 1099-NEC: e-filed by 31 March' },
  { entry: 'form-1096', label: '2026', start: '2026-01-01', end: '2026-12-31', statutory: '2027-02-28', due: '2027-03-01', source: 'Instructions for Form 1096: paper 1099-MISC by 28 February' },
  { entry: 'form-1040', label: '2026', start: '2026-01-01', end: '2026-12-31', statutory: '2027-04-15', due: '2027-04-15', extended: '2027-10-15', source: 'Form 1040 instructions; Form 4868 (15 October)' },
  { entry: 'form-4868', label: '2026', start: '2026-01-01', end: '2026-12-31', statutory: '2027-04-15', due: '2027-04-15', source: 'Form 4868: filed by the return\'s due date' },
  { entry: 'form-1040-es', label: 'Sep–Dec 2025', start: '2025-09-01', end: '2025-12-31', statutory: '2026-01-15', due: '2026-01-15', source: 'Form 1040-ES (2026), payment periods' },
  { entry: 'form-1040-es', label: 'Jan–Mar 2026', start: '2026-01-01', end: '2026-03-31', statutory: '2026-04-15', due: '2026-04-15', source: 'Form 1040-ES (2026), payment periods' },
  { entry: 'form-1040-es', label: 'Apr–May 2026', start: '2026-04-01', end: '2026-05-31', statutory: '2026-06-15', due: '2026-06-15', source: 'Form 1040-ES (2026), payment periods' },
  { entry: 'form-1040-es', label: 'Jun–Aug 2026', start: '2026-06-01', end: '2026-08-31', statutory: '2026-09-15', due: '2026-09-15', source: 'Form 1040-ES (2026), payment periods' },
  { entry: 'form-1040-es', label: 'Sep–Dec 2026', start: '2026-09-01', end: '2026-12-31', statutory: '2027-01-15', due: '2027-01-15', source: 'Form 1040-ES (2027), payment periods' },
  { entry: 'form-1120-s', label: '2025', start: '2025-01-01', end: '2025-12-31', statutory: '2026-03-15', due: '2026-03-16', reason: '15 Mar 2026 is a Sunday', extended: '2026-09-15', source: 'Instructions for Form 1120-S (2025); Form 7004' },
  { entry: 'form-1120-s', label: '2026', start: '2026-01-01', end: '2026-12-31', statutory: '2027-03-15', due: '2027-03-15', extended: '2027-09-15', source: 'Instructions for Form 1120-S; Form 7004 (six months)' },
  { entry: 'form-1065', label: '2026', start: '2026-01-01', end: '2026-12-31', statutory: '2027-03-15', due: '2027-03-15', extended: '2027-09-15', source: 'Instructions for Form 1065; Form 7004 (six months)' },
  { entry: 'form-1041', label: '2026', start: '2026-01-01', end: '2026-12-31', statutory: '2027-04-15', due: '2027-04-15', extended: '2027-09-30', source: 'Instructions for Form 1041; Form 7004 (five and a half months)' },
  { entry: 'form-1120', label: '2026', start: '2026-01-01', end: '2026-12-31', statutory: '2027-04-15', due: '2027-04-15', extended: '2027-10-15', source: 'Instructions for Form 1120; Form 7004' },
  // A 30 June year end: the old rule (3rd month, 7-month extension) for the year beginning 1 July 2025; the 4th month from the year beginning 1 July 2026.
  { entry: 'form-1120', client: { fiscalYearEnd: '06-30' }, label: 'FY Jul 2025–Jun 2026', start: '2025-07-01', end: '2026-06-30', statutory: '2026-09-15', due: '2026-09-15', extended: '2027-04-15', source: 'IRC §6072(b) as amended by Pub. L. 114-41 §2006(a)(3); Instructions for Form 1120 (2025)' },
  { entry: 'form-1120', client: { fiscalYearEnd: '06-30' }, label: 'FY Jul 2026–Jun 2027', start: '2026-07-01', end: '2027-06-30', statutory: '2027-10-15', due: '2027-10-15', extended: '2028-04-18', source: 'IRC §6072(a); Form 7004; 15 Apr 2028 is a Saturday and DC Emancipation Day is observed Monday 17 Apr 2028' },
  { entry: 'form-1120-w', client: { fiscalYearEnd: '06-30' }, label: 'Q3 2026', start: '2026-07-01', end: '2026-09-30', statutory: '2026-10-15', due: '2026-10-15', source: 'Form 1120-W: 15th day of the 4th month of the tax year (its first quarter)' },
  { entry: 'form-7004-1120', label: '2026', start: '2026-01-01', end: '2026-12-31', statutory: '2027-04-15', due: '2027-04-15', source: 'Form 7004 instructions: by the return\'s due date' },
  { entry: 'form-7004-1120-s', label: '2026', start: '2026-01-01', end: '2026-12-31', statutory: '2027-03-15', due: '2027-03-15', source: 'Form 7004 instructions' },
  { entry: 'form-7004-1065', label: '2025', start: '2025-01-01', end: '2025-12-31', statutory: '2026-03-15', due: '2026-03-16', source: `Form 7004 instructions; ${P509}` },
  { entry: 'form-7004-1041', label: '2026', start: '2026-01-01', end: '2026-12-31', statutory: '2027-04-15', due: '2027-04-15', source: 'Form 7004 instructions' },
  { entry: 'form-1120-w', label: 'Q4 2027', start: '2027-10-01', end: '2027-12-31', statutory: '2027-12-15', due: '2027-12-15', source: 'Form 1120-W: the 12th month of a calendar year' },
];

const ATO = 'ATO, Key lodgment and payment dates 2026–27; next business day when the date falls on a weekend or public holiday';
const AU: Row[] = [
  { entry: 'itr-individual', label: 'FY2026', start: '2025-07-01', end: '2026-06-30', statutory: '2026-10-31', due: '2026-11-02', reason: '31 Oct 2026 is a Saturday', source: ATO },
  { entry: 'partnership-return', label: 'FY2026', start: '2025-07-01', end: '2026-06-30', statutory: '2026-10-31', due: '2026-11-02', source: ATO },
  { entry: 'trust-return', label: 'FY2026', start: '2025-07-01', end: '2026-06-30', statutory: '2026-10-31', due: '2026-11-02', source: ATO },
  { entry: 'bas-quarterly', label: 'Q1 FY2027', start: '2026-07-01', end: '2026-09-30', statutory: '2026-10-28', due: '2026-10-28', source: ATO },
  { entry: 'bas-quarterly', label: 'Q2 FY2027', start: '2026-10-01', end: '2026-12-31', statutory: '2027-02-28', due: '2027-03-01', reason: '28 Feb 2027 is a Sunday', source: ATO },
  { entry: 'company-return', label: 'FY2026', start: '2025-07-01', end: '2026-06-30', statutory: '2027-02-28', due: '2027-03-01', source: ATO },
  { entry: 'payg-instalments', label: 'Q2 FY2027', start: '2026-10-01', end: '2026-12-31', statutory: '2027-02-28', due: '2027-03-01', source: 'ATO, PAYG instalments due dates' },
  { entry: 'super-guarantee', label: 'Q4 FY2026', start: '2026-04-01', end: '2026-06-30', statutory: '2026-07-28', due: '2026-07-28', source: 'ATO, Super guarantee quarterly due dates (last quarter before Payday Super)' },
  { entry: 'payday-super', label: 'Jul 2026', start: '2026-07-01', end: '2026-07-31', statutory: '2026-08-07', due: '2026-08-07', source: 'Treasury Laws Amendment (Payday Superannuation) Act 2025, from 1 July 2026' },
  { entry: 'stp-finalisation', label: 'FY2027', start: '2026-07-01', end: '2027-06-30', statutory: '2027-07-14', due: '2027-07-14', source: 'ATO, STP finalisation' },
];

const HMRC = 'HMRC (gov.uk); UK due dates do not move for weekends';
const UK: Row[] = [
  { entry: 'paye-payment', label: 'Tax month 7 2026-27 (6 Oct–5 Nov)', start: '2026-10-06', end: '2026-11-05', statutory: '2026-11-22', due: '2026-11-22', source: 'HMRC, Pay employers\' PAYE: by the 22nd after the tax month (electronic)' },
  { entry: 'paye-payment', label: 'Tax month 12 2026-27 (6 Mar–5 Apr)', start: '2027-03-06', end: '2027-04-05', statutory: '2027-04-22', due: '2027-04-22', source: 'HMRC, Pay employers\' PAYE' },
  { entry: 'sa-balancing-payment', label: '2025-26', start: '2025-04-06', end: '2026-04-05', statutory: '2027-01-31', due: '2027-01-31', source: 'TMA 1970 s59B(4); gov.uk Pay your Self Assessment tax bill' },
  { entry: 'sa-payment-january', label: '2026-27', start: '2026-04-06', end: '2027-04-05', statutory: '2027-01-31', due: '2027-01-31', source: 'TMA 1970 s59A; gov.uk Payments on account' },
  { entry: 'sa100', label: '2025-26', start: '2025-04-06', end: '2026-04-05', statutory: '2027-01-31', due: '2027-01-31', source: HMRC },
  { entry: 'ct600', label: 'FY Jan–Dec 2025', start: '2025-01-01', end: '2025-12-31', statutory: '2026-12-31', due: '2026-12-31', source: 'FA 1998 Sch 18 para 14; gov.uk Company Tax Returns: 12 months after the period' },
  { entry: 'ct600', client: { fiscalYearEnd: '03-31' }, label: 'FY Apr 2025–Mar 2026', start: '2025-04-01', end: '2026-03-31', statutory: '2027-03-31', due: '2027-03-31', source: 'gov.uk Company Tax Returns' },
  { entry: 'ct-payment', label: 'FY Jan–Dec 2025', start: '2025-01-01', end: '2025-12-31', statutory: '2026-10-01', due: '2026-10-01', source: 'gov.uk Pay Corporation Tax: 9 months and 1 day' },
  { entry: 'ct-payment', client: { fiscalYearEnd: '03-31' }, label: 'FY Apr 2025–Mar 2026', start: '2025-04-01', end: '2026-03-31', statutory: '2027-01-01', due: '2027-01-01', source: 'gov.uk Pay Corporation Tax: 9 months and 1 day' },
  { entry: 'vat-return', label: 'Oct–Dec 2026', start: '2026-10-01', end: '2026-12-31', statutory: '2027-02-07', due: '2027-02-07', source: 'gov.uk VAT Returns: 1 month and 7 days' },
  { entry: 'sa-payment-july', label: '2025-26', start: '2025-04-06', end: '2026-04-05', statutory: '2026-07-31', due: '2026-07-31', source: 'TMA 1970 s59A(2)(b)' },
  { entry: 'sa800', label: '2025-26', start: '2025-04-06', end: '2026-04-05', statutory: '2027-01-31', due: '2027-01-31', source: HMRC },
  { entry: 'sa900', label: '2025-26', start: '2025-04-06', end: '2026-04-05', statutory: '2027-01-31', due: '2027-01-31', source: HMRC },
  { entry: 'annual-accounts', label: 'FY Jan–Dec 2025', start: '2025-01-01', end: '2025-12-31', statutory: '2026-09-30', due: '2026-09-30', source: 'Companies Act 2006 s442: 9 months after the accounting reference date' },
];

const IN: Row[] = [
  { entry: 'tds-deposit', label: 'Mar 2026', start: '2026-03-01', end: '2026-03-31', statutory: '2026-04-30', due: '2026-04-30', source: 'Income-tax Rules 1962 rule 30(2)(a): tax deducted in March, by 30 April' },
  { entry: 'tds-deposit', label: 'Feb 2027', start: '2027-02-01', end: '2027-02-28', statutory: '2027-03-07', due: '2027-03-07', source: 'Income-tax Rules 1962 rule 30(2)(b)' },
  { entry: 'gstr-3b-qrmp', client: { state: 'IN-DL' }, label: 'Q3 FY 2026-27', start: '2026-10-01', end: '2026-12-31', statutory: '2027-01-24', due: '2027-01-24', source: 'CBIC Notification 76/2020-CT: category Y (Delhi) the 24th' },
  { entry: 'gstr-3b-qrmp', client: { state: 'IN-PB' }, label: 'Q2 FY 2026-27', start: '2026-07-01', end: '2026-09-30', statutory: '2026-10-24', due: '2026-10-24', source: 'CBIC Notification 76/2020-CT: category Y (Punjab) the 24th' },
  { entry: 'gstr-3b-qrmp', client: { state: 'IN-MH' }, label: 'Q3 FY 2026-27', start: '2026-10-01', end: '2026-12-31', statutory: '2027-01-22', due: '2027-01-22', source: 'CBIC Notification 76/2020-CT: category X (Maharashtra) the 22nd' },
  { entry: 'gstr-3b-qrmp', client: { state: 'IN-KA' }, label: 'Q2 FY 2026-27', start: '2026-07-01', end: '2026-09-30', statutory: '2026-10-22', due: '2026-10-22', source: 'CBIC Notification 76/2020-CT: category X (Karnataka) the 22nd' },
  { entry: 'aoc-4', label: 'FY 2025-26', start: '2025-04-01', end: '2026-03-31', statutory: '2026-10-30', due: '2026-10-30', source: 'Companies Act 2013 s137: 30 days after an AGM on 30 Sep 2026' },
  { entry: 'mgt-7', label: 'FY 2025-26', start: '2025-04-01', end: '2026-03-31', statutory: '2026-11-29', due: '2026-11-29', source: 'Companies Act 2013 s92(4): 60 days after an AGM on 30 Sep 2026' },
  { entry: 'itr-business-non-audit', label: 'FY 2025-26', start: '2025-04-01', end: '2026-03-31', statutory: '2026-07-31', due: '2026-07-31', source: 'Income-tax Act 1961 s139(1) Explanation 2(b)' },
  { entry: 'itr-business-non-audit', label: 'FY 2026-27', start: '2026-04-01', end: '2027-03-31', statutory: '2027-08-31', due: '2027-08-31', source: 'Finance Act 2026 (Income-tax Act 2025 s263): business not liable to audit, 31 August' },
  { entry: 'itr-non-audit', label: 'FY 2026-27', start: '2026-04-01', end: '2027-03-31', statutory: '2027-07-31', due: '2027-07-31', source: 'Income-tax Act: individuals without business income, 31 July' },
  { entry: 'gstr-1', label: 'Oct 2026', start: '2026-10-01', end: '2026-10-31', statutory: '2026-11-11', due: '2026-11-11', source: 'CGST Rules rule 59' },
  { entry: 'gstr-1-qrmp', label: 'Q3 FY 2026-27', start: '2026-10-01', end: '2026-12-31', statutory: '2027-01-13', due: '2027-01-13', source: 'CGST Rules rule 59(2): QRMP by the 13th' },
  { entry: 'gstr-3b', label: 'Dec 2026', start: '2026-12-01', end: '2026-12-31', statutory: '2027-01-20', due: '2027-01-20', source: 'CGST Rules rule 61(5)' },
  { entry: 'gstr-9', label: 'FY 2025-26', start: '2025-04-01', end: '2026-03-31', statutory: '2026-12-31', due: '2026-12-31', source: 'CGST Rules rule 80' },
  { entry: 'tds-return', label: 'Q4 FY 2026-27', start: '2027-01-01', end: '2027-03-31', statutory: '2027-05-31', due: '2027-05-31', source: 'Income-tax Rules rule 31A' },
  { entry: 'advance-tax', label: 'Q3 FY 2026-27', start: '2026-10-01', end: '2026-12-31', statutory: '2026-12-15', due: '2026-12-15', source: 'Income-tax Act 1961 s211' },
  { entry: 'itr-audit', label: 'FY 2025-26', start: '2025-04-01', end: '2026-03-31', statutory: '2026-10-31', due: '2026-10-31', source: 'Income-tax Act 1961 s139(1) Explanation 2(a)' },
  { entry: 'llp-form-11', label: 'FY 2025-26', start: '2025-04-01', end: '2026-03-31', statutory: '2026-05-30', due: '2026-05-30', source: 'LLP Rules 2009 rule 25' },
  { entry: 'llp-form-8', label: 'FY 2025-26', start: '2025-04-01', end: '2026-03-31', statutory: '2026-10-30', due: '2026-10-30', source: 'LLP Rules 2009 rule 24' },
];

const CRA = 'CRA, due dates on a Saturday, Sunday or public holiday move to the next business day';
const CA: Row[] = [
  { entry: 't1', label: '2026', start: '2026-01-01', end: '2026-12-31', statutory: '2027-04-30', due: '2027-04-30', source: 'CRA, Important dates for individuals' },
  { entry: 't1-self-employed', label: '2026', start: '2026-01-01', end: '2026-12-31', statutory: '2027-06-15', due: '2027-06-15', source: 'CRA: self-employed file by 15 June' },
  { entry: 't1-self-employed-balance', label: '2026', start: '2026-01-01', end: '2026-12-31', statutory: '2027-04-30', due: '2027-04-30', source: 'CRA: self-employed pay by 30 April' },
  { entry: 't2', label: '2026', start: '2026-01-01', end: '2026-12-31', statutory: '2027-06-30', due: '2027-06-30', source: 'CRA T4012: six months after the year end' },
  { entry: 't2', client: { fiscalYearEnd: '03-31' }, label: 'FY Apr 2026–Mar 2027', start: '2026-04-01', end: '2027-03-31', statutory: '2027-09-30', due: '2027-10-01', reason: '30 Sep 2027 is National Day for Truth and Reconciliation', source: `CRA T4012; ${CRA}` },
  { entry: 't2-balance', label: '2026', start: '2026-01-01', end: '2026-12-31', statutory: '2027-02-28', due: '2027-03-01', source: `CRA Corporation payments: two months; ${CRA}` },
  { entry: 'gst-hst-quarterly', label: 'Q4 2026', start: '2026-10-01', end: '2026-12-31', statutory: '2027-01-31', due: '2027-02-01', source: `Excise Tax Act s238(1); ${CRA}` },
  { entry: 'gst-hst-quarterly', label: 'Q2 2027', start: '2027-04-01', end: '2027-06-30', statutory: '2027-07-31', due: '2027-08-03', reason: '31 Jul 2027 is a Saturday; 2 Aug 2027 is Civic Holiday', source: `Excise Tax Act s238(1); ${CRA}` },
  { entry: 'gst-hst-annual-individual', label: '2026', start: '2026-01-01', end: '2026-12-31', statutory: '2027-06-15', due: '2027-06-15', source: 'CRA When to file: annual individual filers 15 June' },
  { entry: 't4', label: '2026', start: '2026-01-01', end: '2026-12-31', statutory: '2027-02-28', due: '2027-03-01', source: `CRA T4 filing deadline: last day of February; ${CRA}` },
  { entry: 't4', label: '2025', start: '2025-01-01', end: '2025-12-31', statutory: '2026-02-28', due: '2026-03-02', source: `CRA T4 filing deadline; ${CRA}` },
  { entry: 't3', label: '2026', start: '2026-01-01', end: '2026-12-31', statutory: '2027-03-31', due: '2027-03-31', source: 'CRA T4013: 90 days after the year end' },
  { entry: 't5013', label: '2026', start: '2026-01-01', end: '2026-12-31', statutory: '2027-03-31', due: '2027-03-31', source: 'CRA T4068: 31 March when every partner is an individual' },
  { entry: 't2-balance-ccpc', label: '2026', start: '2026-01-01', end: '2026-12-31', statutory: '2027-03-31', due: '2027-03-31', source: 'CRA Corporation payments: three months for a CCPC' },
  { entry: 'gst-hst-annual', label: '2026', start: '2026-01-01', end: '2026-12-31', statutory: '2027-03-31', due: '2027-03-31', source: 'Excise Tax Act s238(1)(b): three months after the fiscal year' },
];

describe.each([['us', US], ['australia', AU], ['uk', UK], ['india', IN], ['canada', CA]] as const)('%s: the official dates for 2026–2027', (calendar, rows) => {
  it.each(rows.map((r) => [`${r.entry} ${r.label} (${r.source})`, r] as const))('%s', (_name, row) => check(calendar, row));
});

describe('the rules behind the tables', () => {
  it('the next-business-day rule names the holiday, and the UK and India do not move', () => {
    const us = preset('us').businessDays;
    expect(nextBusinessDay(us, '2026-12-25')).toEqual({ dueDate: '2026-12-28', dueDateReason: '25 Dec 2026 is Christmas Day', holidayCalendar: 'US federal holidays and DC Emancipation Day (IRC §7503)' });
    expect(nextBusinessDay(us, '2026-04-16').dueDate).toBe('2026-04-17'); // DC Emancipation Day counts for §7503
    expect(nextBusinessDay(us, '2028-04-15')).toMatchObject({ dueDate: '2028-04-18', dueDateReason: '15 Apr 2028 is a Saturday; 17 Apr 2028 is Emancipation Day (observed)' });
    expect(nextBusinessDay(us, '2027-06-18').dueDate).toBe('2027-06-21'); // Juneteenth observed on the Friday
    expect(nextBusinessDay(preset('uk').businessDays, '2027-01-31')).toEqual({ dueDate: '2027-01-31', dueDateReason: null, holidayCalendar: null });
    expect(nextBusinessDay(preset('india').businessDays, '2026-11-22').dueDate).toBe('2026-11-22');
    expect(nextBusinessDay(preset('australia').businessDays, '2027-01-26')).toMatchObject({ dueDate: '2027-01-27', dueDateReason: '26 Jan 2027 is Australia Day' });
  });

  it('Payday Super replaces the quarterly super guarantee from 1 July 2026', () => {
    const au = preset('australia');
    const sg = entryPeriods(au, au.entries.find((e) => e.id === 'super-guarantee')!, facts(), 2026);
    expect(sg.periods.map((p) => p.label)).toEqual(['Q2 FY2026', 'Q3 FY2026', 'Q4 FY2026']);
    expect(sg.notInForce.map((n) => n.period.label)).toEqual(['Q1 FY2027']);
    const payday = entryPeriods(au, au.entries.find((e) => e.id === 'payday-super')!, facts(), 2026);
    expect(payday.periods[0]!.label).toBe('Jul 2026');
    expect(payday.notInForce).toHaveLength(7); // Dec 2025 to Jun 2026
  });

  it('a June year-end C corporation has one 1120 a year, by the rule of its tax year', () => {
    const us = preset('us');
    const f1120 = us.entries.find((e) => e.id === 'form-1120')!;
    for (const year of [2026, 2027]) expect(entryPeriods(us, f1120, facts({ fiscalYearEnd: '06-30' }), year).periods).toHaveLength(1);
  });
});

/** What a client gets by default (issue 39: registrations; never a registration-dependent entry for an individual who has not said). */
describe('pre-selection by entity type and registrations', () => {
  const fits = (calendar: string, entityType: string | null, registrations: ClientRegistration[] | null) =>
    (preset(calendar) as CompliancePreset).entries.filter((e) => entryFits(e, entityType, registrations)).map((e) => e.id);

  it('an individual whose registrations are not said gets no GST, TDS, VAT or BAS', () => {
    expect(fits('india', 'individual', null)).toEqual(['advance-tax', 'itr-non-audit']);
    expect(fits('uk', 'individual', null)).not.toContain('vat-return');
    expect(fits('australia', 'individual', null)).toEqual(['itr-individual']);
    expect(fits('us', 'individual', null)).toEqual(['form-1040', 'form-1040-es']);
  });

  it('a business whose registrations are not said gets them (but not the opt-in QRMP or extension requests)', () => {
    expect(fits('india', 'company', null)).toEqual(['gstr-1', 'gstr-3b', 'gstr-9', 'tds-deposit', 'tds-return', 'advance-tax', 'itr-audit', 'aoc-4', 'mgt-7']);
    expect(fits('us', 'c_corp', null)).toEqual(['form-1120', 'form-1120-w', 'form-941', 'form-940', 'form-w-2', 'form-1099-nec', 'form-1099-misc']);
  });

  it('registrations said: exactly those', () => {
    expect(fits('us', 'c_corp', [])).toEqual(['form-1120', 'form-1120-w']);
    expect(fits('us', 's_corp', ['employer'])).toEqual(['form-1120-s', 'form-941', 'form-940', 'form-w-2']);
    expect(fits('india', 'company', ['gst_qrmp', 'tds'])).toEqual(['gstr-1-qrmp', 'gstr-3b-qrmp', 'gstr-9', 'tds-deposit', 'tds-return', 'advance-tax', 'itr-audit', 'aoc-4', 'mgt-7']);
    expect(fits('india', 'individual', ['gst'])).toEqual(['gstr-1', 'gstr-3b', 'gstr-9', 'advance-tax', 'itr-non-audit']);
    expect(fits('uk', 'individual', ['vat'])).toContain('vat-return');
    expect(fits('australia', 'company', ['au_gst', 'payg_instalments'])).toEqual(['bas-quarterly', 'company-return', 'payg-instalments']);
    expect(fits('canada', 'company', ['gst_hst', 'employer'])).toEqual(['t2', 't2-balance', 'gst-hst-quarterly', 't4']);
  });
});

describe('every entry', () => {
  it('is in the tables above', () => {
    const rows: Record<string, readonly Row[]> = { us: US, australia: AU, uk: UK, india: IN, canada: CA };
    const missing = PRESETS.flatMap((p) => p.entries.filter((e) => !rows[p.id]!.some((r) => r.entry === e.id)).map((e) => `${p.id}/${e.id}`));
    expect(missing).toEqual([]);
  });

  it('has a source with an address, and its periods in 2026 and 2027 are distinct', () => {
    for (const p of PRESETS) {
      for (const entry of p.entries) {
        expect(entry.source).toMatch(/https:\/\//);
        for (const year of [2026, 2027]) {
          const { periods } = entryPeriods(p, entry, facts(), year);
          expect(new Set(periods.map((x) => x.label)).size).toBe(periods.length);
          for (const x of periods) expect(x.dueDate >= x.statutoryDueDate!).toBe(true);
        }
      }
    }
  });
});
