// Tags, releases and release asset links.
import { compact, flag, isRecord, pick, user, type Rec } from './helpers';
import type { RecordKind } from './kind';
import { B, fields, I, S, list, USER } from './schema-parts';

const sha = (commit: unknown) => (isRecord(commit) ? commit.id : undefined);

export const tag: RecordKind = {
  about: 'A tag: the commit it points at (commit_sha, title), its message when annotated, whether it is protected and whether a release is made of it.',
  schema: fields({ name: S, commit_sha: S, commit_title: S, message: S, protected: B, release: B, created_at: S }),
  lean: (r) =>
    compact({
      name: r.name,
      commit_sha: sha(r.commit),
      commit_title: isRecord(r.commit) ? r.commit.title : undefined,
      message: r.message,
      protected: flag(r.protected),
      release: flag(isRecord(r.release)),
      created_at: r.created_at,
    }),
};

/** Where a link's permanent URL puts its direct asset path: <release web_url>/downloads<path>. */
const DOWNLOADS = /\/-\/releases\/[^/]+\/downloads(\/.+)$/;

/**
 * A link as an agent uses it: its direct asset path (what create_release_link takes) when it has one,
 * else its URL, and the type only when not `other`. The permanent URL (the release's web_url,
 * /downloads and the path) is the link users share and GitLab redirects it to the link's url, so the
 * url itself, a second URL of the same file, comes with full_response only (D37: a page of links is
 * then under half of GitLab's bytes). A permanent URL of another shape is kept as it is.
 */
function leanLink(l: Rec): Rec {
  const direct = typeof l.direct_asset_url === 'string' && l.direct_asset_url !== l.url ? l.direct_asset_url : undefined;
  const path = direct ? DOWNLOADS.exec(direct)?.[1] : undefined;
  return compact({
    id: l.id,
    name: l.name,
    url: path ? undefined : l.url,
    direct_asset_path: path,
    direct_asset_url: path ? undefined : direct,
    link_type: l.link_type !== 'other' ? l.link_type : undefined,
  });
}

const LINK = fields({ id: I, name: S, url: S, direct_asset_path: S, direct_asset_url: S, link_type: S });

export const release: RecordKind = {
  about: 'A release: its tag and commit, notes, when it is released, its milestones (titles) and asset links (archives left out: they follow from the tag).',
  schema: fields({
    tag_name: S,
    name: S,
    description: S,
    commit_sha: S,
    released_at: S,
    upcoming_release: B,
    author: USER,
    milestones: list(fields({ id: I, title: S })),
    links: list(LINK),
    web_url: S,
  }),
  lean: (r) => {
    const assets = isRecord(r.assets) ? r.assets : {};
    const links = Array.isArray(assets.links) ? assets.links.filter(isRecord).map(leanLink) : undefined;
    return compact({
      tag_name: r.tag_name,
      name: r.name !== r.tag_name ? r.name : undefined,
      description: r.description,
      commit_sha: sha(r.commit),
      released_at: r.released_at,
      upcoming_release: flag(r.upcoming_release),
      author: user(r.author),
      milestones: Array.isArray(r.milestones) ? r.milestones.filter(isRecord).map((m) => pick(m, ['id', 'title'])) : undefined,
      links,
      web_url: isRecord(r._links) ? r._links.self : undefined,
    });
  },
};

export const releaseLink: RecordKind = {
  about:
    "A release asset link: name and its direct asset path when it has one (the permanent URL is the release's web_url, /downloads and the path; GitLab redirects it to the link's url, which full_response gives), else its URL; its type when not other.",
  lean: leanLink,
  schema: LINK,
};
