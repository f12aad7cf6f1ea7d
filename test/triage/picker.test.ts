import { describe, expect, it } from 'vitest';
import { pickerMatches } from '../../src/triage/picker.js';

describe('pickerMatches', () => {
  const choices = ['my-open-or-unassigned', 'unassigned-tickets', 'all-unassigned', 'Una Smith (una)'].map((label) => ({ label, value: label }));
  const labels = (query: string) => pickerMatches(choices, query).map((choice) => choice.label);

  it('puts the choices that start with what is typed first, then those with a word starting so, then the rest, each in list order', () => {
    expect(labels('unassigned')).toEqual(['unassigned-tickets', 'my-open-or-unassigned', 'all-unassigned']);
    expect(labels('UNA')).toEqual(['unassigned-tickets', 'Una Smith (una)', 'my-open-or-unassigned', 'all-unassigned']);
    expect(labels('assigned')).toEqual(['my-open-or-unassigned', 'unassigned-tickets', 'all-unassigned']);
    expect(labels('')).toEqual(choices.map((choice) => choice.label));
  });

  it('matches what is typed without accents', () => {
    const people = ['Jörg Müller', 'Ana Núñez'].map((label) => ({ label, value: label }));
    expect(pickerMatches(people, 'muller').map((choice) => choice.label)).toEqual(['Jörg Müller']);
    expect(pickerMatches(people, 'nunez').map((choice) => choice.label)).toEqual(['Ana Núñez']);
  });

  it('puts an exact match before all', () => {
    const views = ['unassigned-tickets-old', 'unassigned-tickets'].map((label) => ({ label, value: label }));
    expect(pickerMatches(views, 'unassigned-tickets').map((choice) => choice.label)).toEqual(['unassigned-tickets', 'unassigned-tickets-old']);
  });
});
