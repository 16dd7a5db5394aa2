// Offset pagination shared by every list endpoint (GitLab's x-* headers and Link header).
import { json, type Ctx } from './http';

export interface PageInfo {
  page: number;
  perPage: number;
  total: number;
  totalPages: number;
}

export function pageParams(ctx: Ctx): { page: number; perPage: number } {
  const page = ctx.input.int('page') ?? 1;
  const perPage = ctx.input.int('per_page') ?? 20;
  // GitLab clamps per_page to 100; nonsensical values fall back to the defaults.
  return { page: Math.max(page, 1), perPage: perPage < 1 ? 20 : Math.min(perPage, 100) };
}

export function paginationHeaders(ctx: Ctx, info: PageInfo): Headers {
  const { page, perPage, total, totalPages } = info;
  const inRange = page <= totalPages;
  const next = inRange && page < totalPages ? String(page + 1) : '';
  const prev = inRange && page > 1 ? String(page - 1) : '';
  const h = new Headers({
    'x-page': String(page),
    'x-per-page': String(perPage),
    'x-total': String(total),
    'x-total-pages': String(totalPages),
    'x-next-page': next,
    'x-prev-page': prev,
  });
  const link = (n: number, rel: string) => pageLink(ctx, perPage, n, rel);
  const links = [];
  if (prev) links.push(link(page - 1, 'prev'));
  if (next) links.push(link(page + 1, 'next'));
  links.push(link(1, 'first'), link(totalPages, 'last'));
  h.set('link', links.join(', '));
  return h;
}

/** A Link header entry: it keeps every other query param and points at the path exactly as the client sent it. */
function pageLink(ctx: Ctx, perPage: number, page: number, rel: string): string {
  const q = new URLSearchParams(ctx.url.search);
  q.set('page', String(page));
  q.set('per_page', String(perPage));
  return `<${ctx.url.origin}${ctx.rawPath}?${q}>; rel="${rel}"`;
}

/**
 * GitLab counts a list only up to 10,000 rows: above that it pages `without_count` and sends no
 * x-total, x-total-pages or last link, for performance (lib/gitlab/pagination/offset_pagination.rb,
 * paginate_with_limit_optimization with Kaminari's MAX_COUNT_LIMIT). The next page is still known
 * (Kaminari reads one row past the page).
 */
export const MAX_COUNT_LIMIT = 10_000;

/** Slice `items` for the requested page and answer 200 with the pagination headers. */
export function listResponse<T>(ctx: Ctx, items: T[], present: (item: T) => unknown = (x) => x): Response {
  const { page, perPage } = pageParams(ctx);
  const total = items.length;
  if (total > MAX_COUNT_LIMIT) {
    const slice = items.slice((page - 1) * perPage, page * perPage);
    const next = items.length > page * perPage ? String(page + 1) : '';
    return json(slice.map(present), 200, uncountedHeaders(ctx, page, perPage, next));
  }
  const totalPages = Math.max(Math.ceil(total / perPage), 1);
  const slice = items.slice((page - 1) * perPage, page * perPage);
  return json(slice.map(present), 200, paginationHeaders(ctx, { page, perPage, total, totalPages }));
}

/**
 * A page of a list GitLab does not count (lib/api/commits.rb: paginate(…, exclude_total_headers:
 * true, without_count: true)): no x-total or x-total-pages, no last link, and a next page promised
 * whenever this page is full, although it may turn out empty.
 */
export function uncountedListResponse<T>(ctx: Ctx, items: T[], present: (item: T) => unknown = (x) => x): Response {
  const { page, perPage } = pageParams(ctx);
  const slice = items.slice((page - 1) * perPage, page * perPage);
  const next = slice.length === perPage ? String(page + 1) : '';
  return json(slice.map(present), 200, uncountedHeaders(ctx, page, perPage, next));
}

/** The headers of a page GitLab did not count: no x-total, x-total-pages or last link. */
function uncountedHeaders(ctx: Ctx, page: number, perPage: number, next: string): Headers {
  const prev = page > 1 ? String(page - 1) : '';
  const h = new Headers({ 'x-page': String(page), 'x-per-page': String(perPage), 'x-next-page': next, 'x-prev-page': prev });
  const link = (n: number, rel: string) => pageLink(ctx, perPage, n, rel);
  const links = [];
  if (prev) links.push(link(page - 1, 'prev'));
  if (next) links.push(link(page + 1, 'next'));
  links.push(link(1, 'first'));
  h.set('link', links.join(', '));
  return h;
}
