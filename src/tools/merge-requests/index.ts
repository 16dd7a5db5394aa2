// The merge_requests group, in a reviewer's order: find and read, change and merge, diffs, threads, approvals, the draft review flow.
import { approveMergeRequest, getMergeRequestApprovalState, unapproveMergeRequest } from './approvals';
import { listMergeRequestDiffs, listMergeRequestVersions } from './diffs';
import { createMergeRequestDiscussionNote, createMergeRequestThread, mrDiscussions, resolveMergeRequestThread } from './discussions';
import { bulkPublishDraftNotes, createDraftNote } from './drafts';
import { listMergeRequests } from './list';
import { mergeMergeRequest } from './merge';
import { createMergeRequest, getMergeRequest, updateMergeRequest } from './merge-requests';

export const mergeRequestTools = [
  listMergeRequests,
  getMergeRequest,
  createMergeRequest,
  updateMergeRequest,
  mergeMergeRequest,
  listMergeRequestDiffs,
  listMergeRequestVersions,
  mrDiscussions,
  createMergeRequestThread,
  createMergeRequestDiscussionNote,
  resolveMergeRequestThread,
  getMergeRequestApprovalState,
  approveMergeRequest,
  unapproveMergeRequest,
  createDraftNote,
  bulkPublishDraftNotes,
];
