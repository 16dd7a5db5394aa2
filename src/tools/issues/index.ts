// The issues group, in docs/spec.md's order: issues, description patch, to-dos, comments, links, reactions.
import { updateIssueDescriptionPatch } from './description-patch';
import { createIssue, deleteIssue, getIssue, updateIssue } from './issues';
import { getIssueLink, createIssueLink, deleteIssueLink, listIssueLinks } from './links';
import { listIssuesTool, myIssues } from './list';
import { createIssueNote, createNote, listIssueDiscussions, updateIssueNote } from './notes';
import { reactionTools } from './reactions';
import { todoTools } from './todos';

export const issueTools = [
  createIssue,
  listIssuesTool,
  myIssues,
  getIssue,
  updateIssue,
  updateIssueDescriptionPatch,
  deleteIssue,
  ...todoTools,
  createIssueNote,
  updateIssueNote,
  listIssueLinks,
  listIssueDiscussions,
  getIssueLink,
  createIssueLink,
  deleteIssueLink,
  createNote,
  ...reactionTools,
];
