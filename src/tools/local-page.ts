// One page of a list the forge answers whole (no pagination of its own), in the page shape every
// list tool returns (D16), with SPEC's defaults (page 1, per_page 20): the totals are exact, since
// every item is at hand.
import type { Pagination } from '../forge/client';

const DEFAULT_PER_PAGE = 20;

export function localPage<T>(all: readonly T[], page = 1, perPage = DEFAULT_PER_PAGE): { items: T[]; pagination: Pagination } {
  const totalPages = Math.max(1, Math.ceil(all.length / perPage));
  return {
    items: all.slice((page - 1) * perPage, page * perPage),
    pagination: { page, per_page: perPage, next_page: page < totalPages ? page + 1 : null, total: all.length, total_pages: totalPages },
  };
}
