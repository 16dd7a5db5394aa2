// Writing commits, shared by the files API (POST/PUT one file) and the commits API (POST with
// actions): the checks and messages of GitLab's Commits::CreateService (branch rules), its
// Files::MultiService (last_commit_id) and Gitaly's index errors (file exists, missing, traversal).
import { createHash } from 'node:crypto';
import type { Commit, ForgeModel, Project, User } from '../model';
import { addCommit, lastCommitFor, snapshotAt, storedBlob, type Snapshot } from '../model-repository';
import { validRefName } from './branches';
import { ACCESS, ApiError, badRequest, forbidden } from './http';

export type ActionKind = 'create' | 'update' | 'delete' | 'move' | 'chmod';

export interface WriteAction {
  action: ActionKind;
  file_path: string;
  previous_path?: string;
  content?: string;
  encoding?: 'text' | 'base64';
  last_commit_id?: string;
  execute_filemode?: boolean;
}

export interface WriteRequest {
  branch: string;
  commitMessage: string;
  startBranch?: string;
  startSha?: string;
  authorName?: string;
  authorEmail?: string;
  actions: WriteAction[];
  /** The files API (403 only below Developer, branch rules as 400) or the commits API (authorize_push_to_branch!: 403). */
  api: 'files' | 'commits';
}

/** Gitaly's traversal check: a `.` or `..` part, or an empty path. */
function pathProblem(path: string): string | undefined {
  if (path === '') return 'You must provide a file path';
  if (path.split('/').some((part) => part === '..' || part === '.')) return 'Path cannot include directory traversal';
  return undefined;
}

let counter = 0;

export function writeCommit(m: ForgeModel, p: Project, user: User, req: WriteRequest): Commit {
  if (m.accessLevel(p, user.id) < ACCESS.developer) throw forbidden();
  if (!m.canPush(p, user.id, req.branch)) {
    const message = 'You are not allowed to push into this branch';
    throw req.api === 'commits' ? new ApiError(403, { message: `403 Forbidden - ${message}` }) : badRequest(message);
  }
  let base: string | undefined;
  if (req.startSha !== undefined) {
    if (!/^[0-9a-f]{40}$/.test(req.startSha)) throw badRequest(`Invalid start_sha '${req.startSha}'`);
    if (!p.commits.has(req.startSha)) throw badRequest(`Cannot find start_sha '${req.startSha}'`);
    base = req.startSha;
  }
  const startBranch = req.startSha === undefined ? (req.startBranch ?? req.branch) : undefined;
  if (startBranch !== undefined) {
    base = p.branches.get(startBranch);
    if (!base) throw badRequest('You can only create or edit files when you are on a branch');
  }
  const newBranch = startBranch !== req.branch;
  if (newBranch) {
    if (p.branches.has(req.branch)) throw badRequest(`A branch called '${req.branch}' already exists. Switch to that branch in order to make changes`);
    if (!validRefName(req.branch)) throw badRequest(`Something went wrong when we tried to create '${req.branch}' for you: Branch name is invalid`);
  }
  const snap: Snapshot = new Map(snapshotAt(m, p, base!));
  for (const a of req.actions) applyAction(m, p, base!, snap, a, req.api);

  const now = m.now();
  const title = req.commitMessage.split('\n')[0];
  const id = createHash('sha1').update(`fake-forge:written:${++counter}:${now}:${req.commitMessage}`).digest('hex');
  const commit = addCommit(
    m,
    p,
    {
      id,
      title,
      message: req.commitMessage,
      author_name: req.authorName ?? user.name,
      author_email: req.authorEmail ?? user.email,
      authored_date: now,
      committer_name: user.name,
      committer_email: user.email,
      committed_date: now,
      parent_ids: [base!],
      trailers: {},
    },
    snap,
  );
  p.branches.set(req.branch, id);
  return commit;
}

function contentBytes(a: WriteAction): Uint8Array {
  const text = a.content ?? '';
  return a.encoding === 'base64' ? Uint8Array.from(Buffer.from(text, 'base64')) : new TextEncoder().encode(text);
}

const GUARDED: readonly ActionKind[] = ['update', 'move', 'delete'];

function applyAction(m: ForgeModel, p: Project, base: string, snap: Snapshot, a: WriteAction, api: WriteRequest['api']): void {
  for (const path of [a.file_path, a.previous_path]) {
    const problem = path === undefined ? undefined : pathProblem(path);
    if (problem) throw badRequest(problem);
  }
  const existing = a.action === 'move' ? snap.get(a.previous_path!) : snap.get(a.file_path);
  const isDirectory = [...snap.keys()].some((k) => k.startsWith(`${a.file_path}/`));
  // Files::MultiService#validate_file_status! checks last_commit_id for update, move and delete only
  // (app/services/files/multi_service.rb); lib/api/commits.rb declares it on every action, so a chmod's
  // is accepted and ignored.
  if (GUARDED.includes(a.action) && a.last_commit_id !== undefined) {
    const path = a.action === 'move' ? a.previous_path! : a.file_path;
    const current = snap.has(path) ? lastCommitFor(m, p, base, path) : undefined;
    if (current !== a.last_commit_id) {
      // The files API (Files::UpdateService) and the commits API (Files::MultiService) word it differently.
      throw badRequest(
        api === 'files'
          ? 'You are attempting to update a file that has changed since you started editing it.'
          : `The file has changed since you started editing it: ${path}`,
      );
    }
  }
  switch (a.action) {
    case 'create':
      if (snap.has(a.file_path)) throw badRequest('A file with this name already exists');
      if (isDirectory) throw badRequest('A directory with this name already exists');
      snap.set(a.file_path, storedBlob(contentBytes(a), a.execute_filemode ?? false));
      return;
    case 'update':
      if (!existing) throw badRequest("A file with this name doesn't exist");
      snap.set(a.file_path, storedBlob(contentBytes(a), a.execute_filemode ?? existing.executable));
      return;
    case 'delete':
      if (!existing) throw badRequest("A file with this name doesn't exist");
      snap.delete(a.file_path);
      return;
    case 'move':
      if (!existing) throw badRequest("A file with this name doesn't exist");
      if (snap.has(a.file_path)) throw badRequest('A file with this name already exists');
      snap.delete(a.previous_path!);
      snap.set(a.file_path, a.content === undefined ? existing : storedBlob(contentBytes(a), existing.executable));
      return;
    case 'chmod':
      if (!existing) throw badRequest("A file with this name doesn't exist");
      snap.set(a.file_path, { ...existing, executable: a.execute_filemode ?? false });
      return;
  }
}
