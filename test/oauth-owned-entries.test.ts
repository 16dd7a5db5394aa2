// The store behind registrations and sign-ins in progress (D10): an owner at its quota
// loses its own oldest entry; a full store takes room from the owner holding the most; expired
// entries go from the oldest on.
import { describe, expect, test } from 'bun:test';
import { OwnedEntries } from '../src/oauth/owned-entries';

describe('OwnedEntries', () => {
  test('an owner at its quota only ever loses its own oldest entry', () => {
    const store = new OwnedEntries<number>(100, 3);
    store.set('victim-1', 'B', 0);
    for (let i = 0; i < 50; i++) store.set(`flood-${i}`, 'A', i);
    expect(store.get('victim-1')).toBe(0);
    expect(store.heldBy('A')).toBe(3);
    expect([47, 48, 49].map((i) => store.get(`flood-${i}`))).toEqual([47, 48, 49]);
    expect(store.get('flood-46')).toBeUndefined();
    expect(store.size).toBe(4);
  });

  test('a full store takes room from the owner holding the most, never from a small holder', () => {
    const store = new OwnedEntries<string>(6, 4);
    store.set('b1', 'B', 'b1');
    store.set('c1', 'C', 'c1');
    for (let i = 0; i < 4; i++) store.set(`a${i}`, 'A', `a${i}`);
    expect(store.size).toBe(6);
    store.set('d1', 'D', 'd1');
    expect(store.size).toBe(6);
    expect(store.get('a0')).toBeUndefined();
    expect(['b1', 'c1', 'd1', 'a1', 'a2', 'a3'].map((id) => store.get(id))).toEqual(['b1', 'c1', 'd1', 'a1', 'a2', 'a3']);
  });

  test('entries are dropped from the oldest while stale; deleting keeps the counts right', () => {
    const store = new OwnedEntries<number>(10, 10);
    for (let i = 0; i < 5; i++) store.set(`e${i}`, i % 2 ? 'odd' : 'even', i);
    store.dropOldestWhile((v) => v < 2);
    expect(store.size).toBe(3);
    expect(store.heldBy('even')).toBe(2);
    store.delete('e3');
    store.delete('e3');
    expect(store.heldBy('odd')).toBe(0);
    store.set('e2', 'odd', 20);
    expect(store.get('e2')).toBe(20);
    expect(store.heldBy('even')).toBe(1);
    expect(store.size).toBe(2);
  });

  test('refuses to be built without room', () => {
    expect(() => new OwnedEntries(0, 1)).toThrow();
    expect(() => new OwnedEntries(1, 0)).toThrow();
  });
});
