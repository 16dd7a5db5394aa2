// Entries that belong to the client address that caused them (a registration, a sign-in in
// progress), kept oldest first under two bounds, so that a flood from one address only ever
// displaces that address's own entries (D10: sign-in endpoints are counted per client IP):
// - an owner at its quota loses its own oldest entry to make room for its new one;
// - when the whole store is full, the owner holding the most entries loses its oldest.
// Nobody is refused for lack of room, and an address holding few entries keeps them until the
// store is shared by more addresses than it has room for.

interface Owned<V> {
  owner: string;
  value: V;
}

export class OwnedEntries<V> {
  /** Insertion order is age: the oldest entry comes first. */
  private readonly entries = new Map<string, Owned<V>>();
  /** Each owner's entry ids, oldest first. */
  private readonly owners = new Map<string, Set<string>>();

  constructor(
    private readonly maxTotal: number,
    private readonly maxPerOwner: number,
  ) {
    if (maxTotal < 1 || maxPerOwner < 1) throw new Error('OwnedEntries needs room for at least one entry');
  }

  get size(): number {
    return this.entries.size;
  }

  /** How many entries `owner` holds. */
  heldBy(owner: string): number {
    return this.owners.get(owner)?.size ?? 0;
  }

  get(id: string): V | undefined {
    return this.entries.get(id)?.value;
  }

  set(id: string, owner: string, value: V): void {
    this.delete(id);
    const own = this.owners.get(owner);
    if (own && own.size >= this.maxPerOwner) this.delete(oldest(own));
    else if (this.entries.size >= this.maxTotal) this.delete(oldest(this.largestHolding()));
    this.entries.set(id, { owner, value });
    if (own) own.add(id);
    else this.owners.set(owner, new Set([id]));
  }

  delete(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    const own = this.owners.get(entry.owner)!;
    own.delete(id);
    if (own.size === 0) this.owners.delete(entry.owner);
  }

  /** Drops entries from the oldest on while `stale` holds (entries sharing one lifetime expire in order). */
  dropOldestWhile(stale: (value: V) => boolean): void {
    for (const [id, entry] of this.entries) {
      if (!stale(entry.value)) return;
      this.delete(id);
    }
  }

  /** Only called when the store is full: one pass over the owners, at most `maxTotal` of them. */
  private largestHolding(): Set<string> {
    let largest: Set<string> | undefined;
    for (const own of this.owners.values()) if (!largest || own.size > largest.size) largest = own;
    return largest!;
  }
}

const oldest = (ids: Set<string>) => ids.values().next().value as string;
