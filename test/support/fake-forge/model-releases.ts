// Tags' own data (annotated message, tagger date), protected tag rules, releases and their asset
// links, and wiki pages of projects and groups: kept beside the project model (model.ts holds a
// project's tag → sha map, which refs and pipelines already read).

export interface TagInfo {
  /** Annotated tags only: the message and the tag object's own sha (GitLab's `target`). */
  message: string;
  objectSha: string;
  created_at: string;
}

/** A protected tag rule (name or wildcard) and the least role allowed to create such a tag. */
export interface ProtectedTag {
  id: number;
  name: string;
  create_access_level: number;
}

export interface ReleaseLink {
  id: number;
  name: string;
  url: string;
  /** Stored with a leading slash, as GitLab does (Releases::Link#filepath). */
  filepath: string | null;
  link_type: 'other' | 'runbook' | 'image' | 'package';
}

export interface Release {
  tag: string;
  name: string;
  description: string;
  author_id: number;
  created_at: string;
  released_at: string;
  /** Global ids of project milestones. */
  milestone_ids: number[];
  links: ReleaseLink[];
}

export interface WikiVersion {
  id: string;
  title: string;
  format: string;
  content: string;
  authored_date: string;
}

export interface WikiPage {
  slug: string;
  /** Newest first. */
  versions: WikiVersion[];
}

/** One project's release data; created on first use. */
export interface ProjectReleases {
  tagInfo: Map<string, TagInfo>;
  protectedTags: ProtectedTag[];
  releases: Release[];
}

export class ReleaseStore {
  private readonly byProject = new Map<number, ProjectReleases>();
  /** Wikis by container: `project:42`, `group:7`. */
  readonly wikis = new Map<string, WikiPage[]>();
  nextId = { link: 1, protectedTag: 1, wikiVersion: 1 };

  of(projectId: number): ProjectReleases {
    let data = this.byProject.get(projectId);
    if (!data) this.byProject.set(projectId, (data = { tagInfo: new Map(), protectedTags: [], releases: [] }));
    return data;
  }

  wiki(key: string): WikiPage[] {
    let pages = this.wikis.get(key);
    if (!pages) this.wikis.set(key, (pages = []));
    return pages;
  }
}

/**
 * A wiki slug from a title, as GitLab's wiki writes the page file: spaces become dashes, slashes
 * make directories (app/models/wiki_page.rb, Wiki#page_title_and_dir).
 */
export const wikiSlug = (title: string) => title.trim().replace(/ /g, '-');

/** The page title GitLab shows: the last part of the slug, dashes read as spaces. */
export const wikiTitle = (slug: string) => slug.split('/').pop()!.replace(/-/g, ' ');
