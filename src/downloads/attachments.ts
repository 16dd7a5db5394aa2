// Attachment links in issue descriptions and comments (`/uploads/<secret>/<file name>`) cannot be
// opened without forge credentials. Tool results that carry such text get, beside it, an
// `attachments` list of {filename, url} whose url goes through this server's /downloads route with
// a short-lived sealed token. A string without "/uploads/" costs one substring search.

export interface AttachmentRef {
  secret: string;
  filename: string;
}

const UPLOAD_LINK = /\/uploads\/([0-9a-f]{32})\/([^\s)"'<>\][/?#]+)/gi;
const TEXT_FIELDS = ['description', 'body'] as const;
const MAX_DEPTH = 6;

/**
 * Whether a name is one file name the /downloads route serves: not empty, `.` or `..`, no slash,
 * backslash or control character, at most 255 characters. A link is offered only for such a name.
 */
export function isPlainFilename(name: string): boolean {
  // eslint-disable-next-line no-control-regex
  return name.length > 0 && name.length <= 255 && name !== '.' && name !== '..' && !/[/\\\x00-\x1f\x7f]/.test(name);
}

function findAttachments(text: string): AttachmentRef[] {
  if (!text.includes('/uploads/')) return [];
  const found = new Map<string, AttachmentRef>();
  for (const match of text.matchAll(UPLOAD_LINK)) {
    let filename = match[2];
    try {
      filename = decodeURIComponent(filename);
    } catch {
      // keep it as written
    }
    // A name the route would refuse (`..`, an encoded slash) gets no link that cannot open.
    if (!isPlainFilename(filename)) continue;
    const secret = match[1].toLowerCase();
    found.set(`${secret}/${filename}`, { secret, filename });
  }
  return [...found.values()];
}

type LinkMaker = (projectId: string, ref: AttachmentRef) => Promise<string>;

/**
 * Adds `attachments: [{filename, url}]` to every object (at any depth) whose description or body
 * links uploads. `projectId` is the object's own project_id when it has one, else the tool's.
 */
export async function addAttachmentLinks(value: unknown, fallbackProjectId: string | undefined, link: LinkMaker): Promise<unknown> {
  const pending: Promise<void>[] = [];
  const visit = (node: unknown, depth: number, projectId: string | undefined) => {
    if (depth > MAX_DEPTH || !node || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const item of node) visit(item, depth + 1, projectId);
      return;
    }
    const record = node as Record<string, unknown>;
    const own = record.project_id ?? projectId;
    const ownProject = own === undefined || own === null ? undefined : String(own);
    let refs: AttachmentRef[] | undefined;
    for (const field of TEXT_FIELDS) {
      const text = record[field];
      if (typeof text !== 'string' || !text.includes('/uploads/')) continue;
      refs = refs ? refs.concat(findAttachments(text)) : findAttachments(text);
    }
    if (refs && refs.length > 0 && ownProject) {
      pending.push(
        Promise.all(refs.map(async (ref) => ({ filename: ref.filename, url: await link(ownProject, ref) }))).then((attachments) => {
          record.attachments = attachments;
        }),
      );
    }
    for (const key in record) {
      const child = record[key];
      if (child && typeof child === 'object') visit(child, depth + 1, ownProject);
    }
  };
  visit(value, 0, fallbackProjectId);
  if (pending.length > 0) await Promise.all(pending);
  return value;
}
