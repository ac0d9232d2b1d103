import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import {
  clearStoredAuth,
  isClientRole,
  logoutRedirectPath,
  readCurrentTenant,
  readStoredAuth,
  readToken,
  saveCurrentTenant,
  saveStoredAuth,
  withCommonRouting,
} from '@ledgerline/ui/auth-storage.ts';
import { installLocalStorage } from './browser-globals.ts';

const acme = { id: 3, name: 'Acme Tax', shortName: 'acme', isActive: true };
const ann = { id: 1, role: 'Admin', username: 'ann', fullName: 'Ann Smith' };

describe('auth storage', () => {
  let storage: Storage;
  beforeEach(() => {
    storage = installLocalStorage();
  });
  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('is authenticated only when both a token and a user are stored', () => {
    expect(readStoredAuth()).toBeNull();
    storage.setItem('token', 'a.b.c');
    expect(readStoredAuth()).toBeNull();
    storage.setItem('user', JSON.stringify(ann));
    expect(readStoredAuth()).toEqual({ token: 'a.b.c', user: { ...ann, commonRouting: false } });
  });

  it('reads the token from authToken first, then token', () => {
    storage.setItem('token', 'from-token');
    expect(readToken()).toBe('from-token');
    storage.setItem('authToken', 'from-auth-token');
    expect(readToken()).toBe('from-auth-token');
  });

  it('clears all stored auth data when the stored user is corrupt', () => {
    storage.setItem('token', 'a.b.c');
    storage.setItem('authToken', 'a.b.c');
    storage.setItem('user', '{not json');
    storage.setItem('currentTenant', JSON.stringify(acme));
    storage.setItem('unrelated', 'kept');

    expect(readStoredAuth()).toBeNull();
    expect(['token', 'authToken', 'user', 'currentTenant'].map((key) => storage.getItem(key))).toEqual([null, null, null, null]);
    expect(storage.getItem('unrelated')).toBe('kept');
  });

  it('treats a stored user without username or role as corrupt', () => {
    storage.setItem('token', 'a.b.c');
    storage.setItem('user', JSON.stringify({ id: 1 }));
    expect(readStoredAuth()).toBeNull();
    expect(storage.getItem('token')).toBeNull();
  });

  it('adds commonRouting: true for CPA and Client, false otherwise', () => {
    expect(withCommonRouting({ ...ann, role: 'CPA' }).commonRouting).toBe(true);
    expect(withCommonRouting({ ...ann, role: 'Client' }).commonRouting).toBe(true);
    expect(withCommonRouting({ ...ann, role: 'client' }).commonRouting).toBe(true);
    expect(withCommonRouting({ ...ann, role: 'DTA' }).commonRouting).toBe(false);
    expect(withCommonRouting(ann).commonRouting).toBe(false);
  });

  it('login stores token and user, and drops an older authToken that would shadow it', () => {
    storage.setItem('authToken', 'old');
    const stored = saveStoredAuth('new.jwt.token', { ...ann, role: 'CPA', extra: 'kept' });
    expect(stored.commonRouting).toBe(true);
    expect(readToken()).toBe('new.jwt.token');
    expect(JSON.parse(storage.getItem('user')!)).toEqual({ ...ann, role: 'CPA', extra: 'kept', commonRouting: true });
  });

  it('logout clears token, user and tenant', () => {
    saveStoredAuth('a.b.c', ann);
    saveCurrentTenant(acme);
    clearStoredAuth();
    expect(storage.length).toBe(0);
  });

  it('stores the current tenant with id, name, shortName, isActive and its country (for its formats) only', () => {
    saveCurrentTenant({ ...acme, schemaName: 'acme_schema' } as typeof acme);
    expect(JSON.parse(storage.getItem('currentTenant')!)).toEqual({ ...acme, country: null });
    expect(readCurrentTenant()).toEqual({ ...acme, country: null });
    saveCurrentTenant({ ...acme, country: 'IN' });
    expect(readCurrentTenant()).toEqual({ ...acme, country: 'IN' });
  });

  it('logs a tenant that cannot be read and treats it as no tenant', () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => {});
    storage.setItem('currentTenant', '{broken');
    expect(readCurrentTenant()).toBeNull();
    expect(logged).toHaveBeenCalledTimes(1);
    storage.setItem('currentTenant', JSON.stringify({ id: 1 }));
    expect(readCurrentTenant()).toBeNull();
    expect(logged).toHaveBeenCalledTimes(2);
  });

  it('only logs a tenant that cannot be saved', () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => {});
    installLocalStorage(
      Object.assign(Object.create(storage) as Storage, {
        setItem: () => {
          throw new Error('QuotaExceededError');
        },
      }),
    );
    expect(() => saveCurrentTenant(acme)).not.toThrow();
    expect(logged).toHaveBeenCalledWith('Failed to save the current tenant', expect.any(Error));
  });

  it('sends logout to the stored tenant login page, else /login', () => {
    expect(logoutRedirectPath(acme)).toBe('/acme/login');
    expect(logoutRedirectPath(null)).toBe('/login');
  });

  it('recognises the Client role in either case', () => {
    expect(isClientRole('Client')).toBe(true);
    expect(isClientRole('client')).toBe(true);
    expect(isClientRole('CPA')).toBe(false);
    expect(isClientRole(undefined)).toBe(false);
  });
});
