// Every route of the merge request tools' endpoints, registered in handlers.ts with one entry.
import type { Route } from './http';
import { mergeRequestReviewRoutes } from './merge-request-reviews';
import { mergeRequestRoutes as crudRoutes } from './merge-requests';

export const mergeRequestRoutes: Route[] = [...crudRoutes, ...mergeRequestReviewRoutes];
