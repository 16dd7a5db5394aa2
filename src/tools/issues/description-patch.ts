// update_issue_description_patch: read the description, apply a patch locally (GitLab has no
// patch endpoint), re-read to make sure nobody changed the issue meanwhile (DECISIONS D19), then
// write the whole new description. Formats and their rules: DECISIONS D25, docs/description-patch.md.
import { Type } from '@sinclair/typebox';
import { fillPath } from '../../forge/encode';
import { defineTool } from '../define';
import { invalidArgument, ToolError } from '../errors';
import { projectId } from '../params';
import { slimConfirmation, type Issue } from './issues';
import { issueIid } from './params';
import { applyPatch, parsePatch } from './patch/apply';

const ISSUE_PATH = '/projects/{project_id}/issues/{issue_iid}';

const DESCRIPTION = [
  "Change part of an issue's description with a patch instead of resending it whole. In the formats below \\n stands for a line break.",
  'patch_type search_replace: one or more blocks `<<<<<<< SEARCH\\n<exact text>\\n=======\\n<replacement>\\n>>>>>>> REPLACE`, each marker on its own line;',
  'blocks apply in order; the SEARCH text must match exactly (whitespace included) and occur once, unless allow_multiple is true, which replaces every occurrence; an empty replacement deletes.',
  'Example: `<<<<<<< SEARCH\\n- [ ] Write tests\\n=======\\n- [x] Write tests\\n>>>>>>> REPLACE`.',
  'patch_type unified_diff: `--- a/description\\n+++ b/description` then hunks `@@ -l,s +l,s @@` whose lines start with " " (context), "-" (removed) or "+" (added);',
  'context and removed lines must match the description exactly.',
  'Example: `--- a/description\\n+++ b/description\\n@@ -2,2 +2,2 @@\\n ## Steps\\n-1. Open the app\\n+1. Open the app in a private window`.',
  'A patch that does not apply fails with kind mismatch; if the issue changes while the patch is applied the call fails with kind conflict; in both cases nothing is written.',
  'dry_run returns the new description and a diff without writing; create_note adds a comment summarizing the change.',
  'Returns iid, title, state, web_url, updated_at, the diff and a summary.',
].join(' ');

export const updateIssueDescriptionPatch = defineTool({
  name: 'update_issue_description_patch',
  title: 'Patch issue description',
  description: DESCRIPTION,
  group: 'issues',
  mode: 'write',
  endpoint: `GET + PUT ${ISSUE_PATH} (+ POST ${ISSUE_PATH}/notes with create_note)`,
  input: Type.Object(
    {
      project_id: projectId(),
      issue_iid: issueIid(),
      patch_type: Type.Union([Type.Literal('search_replace'), Type.Literal('unified_diff')], {
        description: 'search_replace (SEARCH/REPLACE blocks) or unified_diff (--- / +++ / @@ hunks); formats in the tool description.',
      }),
      patch: Type.String({ minLength: 1, description: 'The patch text in the chosen format.' }),
      dry_run: Type.Optional(Type.Boolean({ description: 'Only show the new description and the diff; write nothing (default false).' })),
      create_note: Type.Optional(Type.Boolean({ description: 'After updating, add a comment summarizing the change (default false).' })),
      allow_multiple: Type.Optional(
        Type.Boolean({ description: 'search_replace only: replace every occurrence of a SEARCH text instead of failing when it occurs more than once (default false).' }),
      ),
    },
    { additionalProperties: false },
  ),
  check(args) {
    if (args.allow_multiple && args.patch_type === 'unified_diff') throw invalidArgument('allow_multiple', 'applies to search_replace patches only');
  },
  async handler(args, { forge }) {
    // A malformed patch is refused before anything is read.
    const patch = parsePatch(args.patch_type, args.patch);
    const path = fillPath(ISSUE_PATH, args);
    const read = await forge.json<Issue>({ method: 'GET', path });
    const before = read.description ?? '';
    const applied = applyPatch(patch, before, args.allow_multiple === true);
    if (args.dry_run) {
      return { dry_run: true, iid: read.iid, web_url: read.web_url, description: applied.description, diff: applied.diff, summary: applied.summary };
    }
    if (applied.description === before) {
      return { updated: false, ...slimConfirmation(read), diff: '', summary: 'the patch leaves the description unchanged; nothing was written' };
    }
    // No lost update (D19): GitLab has no conditional PUT for issues, so compare just before writing.
    const current = await forge.json<Issue>({ method: 'GET', path });
    if (current.updated_at !== read.updated_at || (current.description ?? '') !== before) {
      throw new ToolError('conflict', `issue #${read.iid} changed while the patch was being applied (updated_at ${read.updated_at} → ${current.updated_at}); nothing was written. Read the issue again and rebuild the patch`);
    }
    const updated = await forge.json<Issue>({ method: 'PUT', path, body: { description: applied.description } });
    const result = { updated: true, ...slimConfirmation(updated), diff: applied.diff, summary: applied.summary };
    if (!args.create_note) return result;
    try {
      const note = await forge.json<{ id: number }>({ method: 'POST', path: `${path}/notes`, body: { body: `Updated the description: ${applied.summary}.` } });
      return { ...result, note_id: note.id };
    } catch (error) {
      if (!(error instanceof ToolError)) throw error;
      throw new ToolError(error.kind, `the description was updated (updated_at ${updated.updated_at}), but the summary note could not be added: ${error.message}`, error.status);
    }
  },
});
