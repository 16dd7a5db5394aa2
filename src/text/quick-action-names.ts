// Every GitLab quick action name and alias (D36), with where GitLab defines it. GitLab builds its
// command list from `command :name, :alias …` (and `substitution :name`) in these files of its
// Rails source; the guard refuses a name whatever the noteable type, so a description written for
// an issue is held to the merge request's names too (refusing a little more, never less).
//   CE:  lib/gitlab/quick_actions/{issuable,issue,merge_request,issue_and_merge_request,
//        work_item,relate,commit,common}_actions.rb
//   EE:  ee/lib/ee/gitlab/quick_actions/{issue,merge_request,issue_and_merge_request,epic,
//        relate,work_item}_actions.rb
//   docs: doc/user/project/quick_actions.md, for names defined in releases not listed above.
// Names GitLab has since dropped stay here (`/wip`, the draft alias before 15.x; `/child_epic`,
// `/remove_child_epic`…): this server supports old releases, which still run them.

type QuickActionSource =
  | 'issuable_actions.rb'
  | 'issue_actions.rb'
  | 'merge_request_actions.rb'
  | 'issue_and_merge_request_actions.rb'
  | 'work_item_actions.rb'
  | 'relate_actions.rb'
  | 'commit_actions.rb'
  | 'common_actions.rb'
  | 'ee/issue_actions.rb'
  | 'ee/merge_request_actions.rb'
  | 'ee/issue_and_merge_request_actions.rb'
  | 'ee/epic_actions.rb'
  | 'ee/relate_actions.rb'
  | 'ee/work_item_actions.rb'
  | 'docs';

type Noteable = 'issue' | 'merge_request' | 'epic' | 'work_item' | 'commit';

interface QuickActionDefinition {
  /** The command's name and its aliases, as `command :name, :alias` lists them. */
  readonly names: readonly string[];
  readonly source: QuickActionSource;
  readonly types: readonly Noteable[];
}

const I: Noteable[] = ['issue'];
const MR: Noteable[] = ['merge_request'];
const IMR: Noteable[] = ['issue', 'merge_request'];
const ISSUABLE: Noteable[] = ['issue', 'merge_request', 'epic', 'work_item'];
const WI: Noteable[] = ['work_item'];
const EPIC: Noteable[] = ['epic'];

export const QUICK_ACTION_DEFINITIONS: readonly QuickActionDefinition[] = [
  // lib/gitlab/quick_actions/issuable_actions.rb (types ::Issuable)
  { names: ['close'], source: 'issuable_actions.rb', types: ISSUABLE },
  { names: ['reopen'], source: 'issuable_actions.rb', types: ISSUABLE },
  { names: ['title'], source: 'issuable_actions.rb', types: ISSUABLE },
  { names: ['label', 'labels'], source: 'issuable_actions.rb', types: ISSUABLE },
  { names: ['unlabel', 'remove_label'], source: 'issuable_actions.rb', types: ISSUABLE },
  { names: ['relabel'], source: 'issuable_actions.rb', types: ISSUABLE },
  { names: ['todo'], source: 'issuable_actions.rb', types: ISSUABLE },
  { names: ['done'], source: 'issuable_actions.rb', types: ISSUABLE },
  { names: ['subscribe'], source: 'issuable_actions.rb', types: ISSUABLE },
  { names: ['unsubscribe'], source: 'issuable_actions.rb', types: ISSUABLE },
  { names: ['react', 'award'], source: 'issuable_actions.rb', types: ISSUABLE },
  { names: ['shrug'], source: 'issuable_actions.rb', types: ISSUABLE },
  { names: ['tableflip'], source: 'issuable_actions.rb', types: ISSUABLE },
  { names: ['severity'], source: 'issuable_actions.rb', types: I },
  { names: ['confidential'], source: 'issuable_actions.rb', types: ISSUABLE },
  // lib/gitlab/quick_actions/issue_actions.rb
  { names: ['due'], source: 'issue_actions.rb', types: I },
  { names: ['remove_due_date'], source: 'issue_actions.rb', types: I },
  { names: ['board_move'], source: 'issue_actions.rb', types: I },
  { names: ['duplicate'], source: 'issue_actions.rb', types: I },
  { names: ['clone'], source: 'issue_actions.rb', types: ['issue', 'work_item'] },
  { names: ['move'], source: 'issue_actions.rb', types: ['issue', 'work_item'] },
  { names: ['create_merge_request'], source: 'issue_actions.rb', types: I },
  { names: ['zoom'], source: 'issue_actions.rb', types: I },
  { names: ['remove_zoom'], source: 'issue_actions.rb', types: I },
  { names: ['add_email'], source: 'issue_actions.rb', types: I },
  { names: ['remove_email'], source: 'issue_actions.rb', types: I },
  { names: ['convert_to_ticket'], source: 'issue_actions.rb', types: I },
  { names: ['promote_to_incident'], source: 'issue_actions.rb', types: I },
  { names: ['add_contacts'], source: 'issue_actions.rb', types: I },
  { names: ['remove_contacts'], source: 'issue_actions.rb', types: I },
  { names: ['timeline'], source: 'issue_actions.rb', types: I },
  // lib/gitlab/quick_actions/merge_request_actions.rb
  { names: ['merge'], source: 'merge_request_actions.rb', types: MR },
  { names: ['rebase'], source: 'merge_request_actions.rb', types: MR },
  { names: ['draft', 'wip'], source: 'merge_request_actions.rb', types: MR },
  { names: ['target_branch'], source: 'merge_request_actions.rb', types: MR },
  { names: ['submit_review'], source: 'merge_request_actions.rb', types: MR },
  { names: ['approve'], source: 'merge_request_actions.rb', types: MR },
  { names: ['unapprove'], source: 'merge_request_actions.rb', types: MR },
  { names: ['assign_reviewer', 'reviewer', 'request_review'], source: 'merge_request_actions.rb', types: MR },
  { names: ['unassign_reviewer', 'remove_reviewer'], source: 'merge_request_actions.rb', types: MR },
  // lib/gitlab/quick_actions/issue_and_merge_request_actions.rb
  { names: ['assign'], source: 'issue_and_merge_request_actions.rb', types: IMR },
  { names: ['unassign'], source: 'issue_and_merge_request_actions.rb', types: IMR },
  { names: ['milestone'], source: 'issue_and_merge_request_actions.rb', types: [...IMR, 'work_item'] },
  { names: ['remove_milestone'], source: 'issue_and_merge_request_actions.rb', types: IMR },
  { names: ['copy_metadata'], source: 'issue_and_merge_request_actions.rb', types: [...IMR, 'work_item'] },
  { names: ['estimate', 'estimate_time'], source: 'issue_and_merge_request_actions.rb', types: IMR },
  { names: ['spend', 'spent', 'spend_time'], source: 'issue_and_merge_request_actions.rb', types: IMR },
  { names: ['remove_estimate', 'remove_time_estimate'], source: 'issue_and_merge_request_actions.rb', types: IMR },
  { names: ['remove_time_spent'], source: 'issue_and_merge_request_actions.rb', types: IMR },
  { names: ['lock'], source: 'issue_and_merge_request_actions.rb', types: IMR },
  { names: ['unlock'], source: 'issue_and_merge_request_actions.rb', types: IMR },
  // lib/gitlab/quick_actions/work_item_actions.rb
  { names: ['type'], source: 'work_item_actions.rb', types: WI },
  { names: ['promote_to'], source: 'work_item_actions.rb', types: WI },
  { names: ['set_parent', 'epic'], source: 'work_item_actions.rb', types: ['work_item', 'issue'] },
  { names: ['remove_parent'], source: 'work_item_actions.rb', types: WI },
  { names: ['add_child'], source: 'work_item_actions.rb', types: WI },
  { names: ['remove_child'], source: 'work_item_actions.rb', types: WI },
  // lib/gitlab/quick_actions/relate_actions.rb
  { names: ['relate'], source: 'relate_actions.rb', types: I },
  { names: ['unlink'], source: 'relate_actions.rb', types: I },
  // lib/gitlab/quick_actions/commit_actions.rb
  { names: ['tag'], source: 'commit_actions.rb', types: ['commit'] },
  // lib/gitlab/quick_actions/common_actions.rb: a no-op GitLab skips since 15.0, ran before it.
  { names: ['cc'], source: 'common_actions.rb', types: ISSUABLE },
  // ee/lib/ee/gitlab/quick_actions/issue_actions.rb
  { names: ['remove_epic'], source: 'ee/issue_actions.rb', types: I },
  { names: ['promote'], source: 'ee/issue_actions.rb', types: I },
  { names: ['iteration'], source: 'ee/issue_actions.rb', types: I },
  { names: ['remove_iteration'], source: 'ee/issue_actions.rb', types: I },
  { names: ['publish'], source: 'ee/issue_actions.rb', types: I },
  { names: ['health_status'], source: 'ee/issue_actions.rb', types: I },
  { names: ['clear_health_status'], source: 'ee/issue_actions.rb', types: I },
  { names: ['page'], source: 'ee/issue_actions.rb', types: I },
  // ee/lib/ee/gitlab/quick_actions/merge_request_actions.rb
  { names: ['reassign_reviewer'], source: 'ee/merge_request_actions.rb', types: MR },
  { names: ['summarize_diff'], source: 'ee/merge_request_actions.rb', types: MR },
  // ee/lib/ee/gitlab/quick_actions/issue_and_merge_request_actions.rb
  { names: ['reassign'], source: 'ee/issue_and_merge_request_actions.rb', types: IMR },
  { names: ['weight'], source: 'ee/issue_and_merge_request_actions.rb', types: IMR },
  { names: ['clear_weight'], source: 'ee/issue_and_merge_request_actions.rb', types: IMR },
  // ee/lib/ee/gitlab/quick_actions/epic_actions.rb
  { names: ['child_epic'], source: 'ee/epic_actions.rb', types: EPIC },
  { names: ['remove_child_epic'], source: 'ee/epic_actions.rb', types: EPIC },
  { names: ['parent_epic'], source: 'ee/epic_actions.rb', types: EPIC },
  { names: ['remove_parent_epic'], source: 'ee/epic_actions.rb', types: EPIC },
  // ee/lib/ee/gitlab/quick_actions/relate_actions.rb
  { names: ['blocks'], source: 'ee/relate_actions.rb', types: I },
  { names: ['blocked_by'], source: 'ee/relate_actions.rb', types: I },
  // ee/lib/ee/gitlab/quick_actions/work_item_actions.rb
  { names: ['checkin_reminder'], source: 'ee/work_item_actions.rb', types: WI },
  // Documented in GitLab's doc/user/project/quick_actions.md, defined in files of releases not read here.
  { names: ['invite_email'], source: 'docs', types: I },
  { names: ['link'], source: 'docs', types: I },
  { names: ['ready'], source: 'docs', types: MR },
  { names: ['request_changes'], source: 'docs', types: MR },
  { names: ['status'], source: 'docs', types: ['issue', 'work_item'] },
  { names: ['q'], source: 'docs', types: IMR },
];

/** Every name and alias, lower case. */
export const QUICK_ACTIONS: readonly string[] = QUICK_ACTION_DEFINITIONS.flatMap((definition) => definition.names);
