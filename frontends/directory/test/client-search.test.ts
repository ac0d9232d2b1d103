import { describe, expect, it } from '@jest/globals';
import { emptyClientsMessage, filterClients } from '../src/client-search.ts';

const clients = [
  { id: 1, name: 'Acme Traders', email: 'office@acme.in', phone: '+919876543210', federalId: 'ABCDE1234F', stateId: '22ABCDE1234F1Z5', address: '12 MG Road, Pune' },
  { id: 2, name: 'Beta LLC', email: 'hello@beta.com', phone: '', phoneNumber: '(555)-123-4567', federalId: '12-3456789', stateId: 'NY-1', address: '5 Main Street' },
];
const ids = (term: string) => filterClients(clients, term).map((client) => client.id);

describe('client search', () => {
  it('keeps everything for a blank term', () => {
    expect(ids('')).toEqual([1, 2]);
    expect(ids('   ')).toEqual([1, 2]);
  });

  it('matches a case-insensitive substring of name, email, phone, phoneNumber, federal ID, state ID and address', () => {
    expect(ids('acme')).toEqual([1]);
    expect(ids('HELLO@')).toEqual([2]);
    expect(ids('98765')).toEqual([1]);
    expect(ids('(555)')).toEqual([2]);
    expect(ids('abcde1234f')).toEqual([1]);
    expect(ids('ny-1')).toEqual([2]);
    expect(ids('main street')).toEqual([2]);
    expect(ids(' pune ')).toEqual([1]);
    expect(ids('zzz')).toEqual([]);
  });

  it('tells "no clients yet" from "no match"', () => {
    expect(emptyClientsMessage('')).toBe('No clients found. Add a client to get started.');
    expect(emptyClientsMessage('acme')).toBe('No clients match your search criteria.');
  });
});
