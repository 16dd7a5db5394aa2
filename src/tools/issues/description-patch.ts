// update_issue_description_patch: read the description, apply a patch locally (GitLab has no
// patch endpoint), re-read to make sure nobody changed the issue meanwhile (D19), then
// write the whole new description. Formats and their rules: D25, docs/description-patch.md.
import { Type } from '@sinclair/typebox';
import { fillPath } from '../../forge/encode';
import { defineTool } from '../define';
import { invalidArgument, ToolError } from '../errors';
import { LIMITS, projectId } from '../params';
import { slimConfirmation, type Issue } from './issues';
import { issueIid } from './params';
import { applyPatch, parsePatch } from './patch/apply';
import { lineDiff } from './patch/line-diff';
import { cleanProse } from '../../text/untrusted';
import { B, fields, I, S } from '../lean/schema-parts';

const ISSUE_PATH = '/projects/{project_id}/issues/{issue_iid}';

// The exact formats with an example stay here whatever else is cut (D25): they are all a client has to write a patch from.
const DESCRIPTION = [
  'Edit part of an issue description by patch (\\n = line break).',
  'search_replace: blocks `<<<<<<< SEARCH\\n<exact text>\\n=======\\n<replacement>\\n>>>>>>> REPLACE`, markers on own lines, applied in order;',
  'each SEARCH must match exactly once.',
  'Example: `<<<<<<< SEARCH\\n- [ ] Tests\\n=======\\n- [x] Tests\\n>>>>>>> REPLACE`.',
  'unified_diff: hunks whose context (" ") and removed ("-") lines match exactly, e.g.',
  '`--- a/description\\n+++ b/description\\n@@ -2,2 +2,2 @@\\n ## Steps\\n-1. Open app\\n+1. Open app privately`.',
  'On mismatch, or conflict (issue changed meanwhile), nothing is written.',
].join(' ');

export const updateIssueDescriptionPatch = defineTool({
  name: 'update_issue_description_patch',
  title: 'Patch issue description',
  description: DESCRIPTION,
  group: 'issues',
  mode: 'write',
  endpoint: `GET + PUT ${ISSUE_PATH} (+ POST ${ISSUE_PATH}/notes with create_note)`,
  output: fields({ updated: B, dry_run: B, iid: I, title: S, state: S, web_url: S, updated_at: S, description: S, diff: S, summary: S, note_id: I }),
  input: Type.Object(
    {
      project_id: projectId(),
      issue_iid: issueIid(),
      patch_type: Type.Union([Type.Literal('search_replace'), Type.Literal('unified_diff')], { description: 'How patch is written (see the tool)' }),
      // A patch holds both the old and the new text of a description.
      patch: Type.String({ minLength: 1, maxLength: 2 * LIMITS.text, description: 'SEARCH/REPLACE blocks or diff hunks' }),
      dry_run: Type.Optional(Type.Boolean({ description: 'Preview only' })),
      create_note: Type.Optional(Type.Boolean({ description: 'Add a summary comment' })),
      allow_multiple: Type.Optional(Type.Boolean({ description: 'search_replace: every match' })),
    },
    { additionalProperties: false },
  ),
  check(args) {
    if (args.allow_multiple && args.patch_type === 'unified_diff') throw invalidArgument('allow_multiple', 'applies to search_replace patches only');
  },
  async handler(args, { forge, checkUserText }) {
    // A malformed patch is refused before anything is read.
    const patch = parsePatch(args.patch_type, args.patch);
    const path = fillPath(ISSUE_PATH, args);
    const read = await forge.json<Issue>({ method: 'GET', path });
    const before = read.description ?? '';
    const applied = applyPatch(patch, before, args.allow_multiple === true);
    // GitLab runs quick actions in a saved description (D36): the patched text is checked as a whole.
    checkUserText?.('patch', applied.description);
    // The diff shows the description as the result does (D36): a hidden comment in the text others
    // wrote reaches the agent in neither; the summary still counts every line the patch changed.
    const shownBefore = cleanProse(before);
    const shownAfter = cleanProse(applied.description);
    const diff = shownBefore === before && shownAfter === applied.description ? applied.diff : lineDiff(shownBefore, shownAfter).diff;
    if (args.dry_run) {
      return { dry_run: true, iid: read.iid, web_url: read.web_url, description: applied.description, diff, summary: applied.summary };
    }
    if (applied.description === before) {
      return { updated: false, ...slimConfirmation(read), diff: '', summary: 'the patch leaves the description unchanged; nothing was written' };
    }
    // No lost update (D19): GitLab has no conditional PUT for issues, so compare just before writing.
    const current = await forge.json<Issue>({ method: 'GET', path });
    if (current.updated_at !== read.updated_at || (current.description ?? '') !== before) {
      throw new ToolError(
        'conflict',
        `issue #${read.iid} changed while the patch was being applied (updated_at ${read.updated_at} → ${current.updated_at}); nothing was written. Read the issue again and rebuild the patch`,
      );
    }
    const updated = await forge.json<Issue>({ method: 'PUT', path, body: { description: applied.description } });
    const result = { updated: true, ...slimConfirmation(updated), diff, summary: applied.summary };
    if (!args.create_note) return result;
    try {
      const note = await forge.json<{ id: number }>({ method: 'POST', path: `${path}/notes`, body: { body: `Updated the description: ${applied.summary}.` } });
      return { ...result, note_id: note.id };
    } catch (error) {
      if (!(error instanceof ToolError)) throw error;
      throw new ToolError(
        error.kind,
        `the description was updated (updated_at ${updated.updated_at}), but the summary note could not be added: ${error.message}`,
        error.status,
      );
    }
  },
});
