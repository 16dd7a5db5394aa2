// Regenerates test/fixtures/gitlab-shapes.json: GitLab's response shapes as a well-kept client
// library records them, for test/gitlab-shapes.test.ts (docs/forge-editions.md, "Recorded shapes").
//
//   apt-get install golang-github-xanzy-go-gitlab-dev   # Debian bookworm: 0.73.1-2
//   bun run scripts/extract-gitlab-shapes.ts [path to the go-gitlab source]
//
// Two sources in the package's Go source: the struct types, whose `json:"…"` tags name GitLab's fields
// and whose Go types give their JSON types (a pointer, slice, map or interface may also be null); and
// the JSON responses its *_test.go files and testdata/ record, which widen a field's types to what
// GitLab was seen to send (each recorded object is matched to the struct whose fields cover it best).
// Only the structs reachable from the entities the fake forge serves are kept. CI reads the committed
// fixture and never needs the package.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const SOURCE = process.argv[2] ?? '/usr/share/gocode/src/github.com/xanzy/go-gitlab';
const OUTPUT = join(import.meta.dir, '..', 'test', 'fixtures', 'gitlab-shapes.json');
/** The records the fake forge serves, by the struct go-gitlab decodes them into. */
const ROOTS = [
  'Issue',
  'Milestone',
  'Branch',
  'ProtectedBranch',
  'Commit',
  'Discussion',
  'AwardEmoji',
  'IssueLink',
  'Todo',
  'Project',
  'Group',
  'Namespace',
  'ProjectMember',
  'GroupMember',
  'User',
  'ContributionEvent',
  'Label',
  'Blob',
  'Snippet',
];

type JsonType = 'string' | 'number' | 'boolean' | 'object' | 'array' | 'null';
interface FieldShape {
  types: JsonType[];
  /** The struct an object (or each item of an array) follows. */
  struct?: string;
}
type StructShape = Record<string, FieldShape>;

const BASIC: Record<string, JsonType> = {
  string: 'string',
  bool: 'boolean',
  int: 'number',
  int64: 'number',
  int32: 'number',
  float64: 'number',
  float32: 'number',
  uint: 'number',
  'time.Time': 'string',
  ISOTime: 'string',
};

function readGo(): { structs: Map<string, string[]>; aliases: Map<string, string>; tests: string[] } {
  const structs = new Map<string, string[]>();
  const aliases = new Map<string, string>();
  const tests: string[] = [];
  const files = readdirSync(SOURCE).filter((f) => f.endsWith('.go'));
  for (const file of files) {
    const text = readFileSync(join(SOURCE, file), 'utf8');
    if (file.endsWith('_test.go')) tests.push(text);
    for (const m of text.matchAll(/^type (\w+) (int|int64|string|bool|float64)$/gm)) aliases.set(m[1], m[2]);
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const head = /^type (\w+) struct \{$/.exec(lines[i]);
      if (!head) continue;
      const body: string[] = [];
      let depth = 1;
      for (i++; i < lines.length && depth > 0; i++) {
        if (/struct \{$/.test(lines[i])) depth++;
        if (/^\s*\}/.test(lines[i])) depth--;
        if (depth > 0 || !/^\}/.test(lines[i])) body.push(lines[i]);
      }
      i--;
      structs.set(head[1], body);
    }
  }
  for (const dir of ['testdata']) {
    try {
      for (const f of readdirSync(join(SOURCE, dir)).filter((x) => x.endsWith('.json'))) tests.push(`\`${readFileSync(join(SOURCE, dir, f), 'utf8')}\``);
    } catch {
      // No testdata directory in this version.
    }
  }
  return { structs, aliases, tests };
}

/** The JSON types and struct of a Go type. */
function shapeOf(goType: string, aliases: Map<string, string>, known: Set<string>): FieldShape {
  let t = goType;
  const nullable = t.startsWith('*') || t.startsWith('[]') || t.startsWith('map[') || t === 'interface{}';
  t = t.replace(/^\*/, '');
  const withNull = (types: JsonType[]): JsonType[] => (nullable && !types.includes('null') ? [...types, 'null'] : types);
  if (t.startsWith('[]')) {
    const item = shapeOf(t.slice(2), aliases, known);
    return { types: withNull(['array']), ...(item.struct ? { struct: item.struct } : {}) };
  }
  if (t.startsWith('map[') || t === 'interface{}') return { types: ['string', 'number', 'boolean', 'object', 'array', 'null'] };
  if (BASIC[t]) return { types: withNull([BASIC[t]]) };
  if (aliases.has(t)) return { types: withNull([BASIC[aliases.get(t)!]]) };
  if (known.has(t)) return { types: withNull(['object']), struct: t };
  // A type this extraction does not follow: any JSON value.
  return { types: ['string', 'number', 'boolean', 'object', 'array', 'null'] };
}

function parseStructs(go: ReturnType<typeof readGo>): Map<string, StructShape> {
  const out = new Map<string, StructShape>();
  const known = new Set(go.structs.keys());
  const parse = (name: string, body: string[]) => {
    const shape: StructShape = {};
    for (let i = 0; i < body.length; i++) {
      const inline = /^\s*(\w+)\s+(\[\]|\*)?struct \{$/.exec(body[i]);
      if (inline) {
        const inner: string[] = [];
        let depth = 1;
        for (i++; i < body.length; i++) {
          if (/struct \{$/.test(body[i])) depth++;
          if (/^\s*\}/.test(body[i]) && --depth === 0) break;
          inner.push(body[i]);
        }
        const tag = /json:"([^",]+)/.exec(body[i] ?? '');
        if (!tag || tag[1] === '-') continue;
        const innerName = `${name}.${inline[1]}`;
        known.add(innerName);
        parse(innerName, inner);
        shape[tag[1]] = { types: inline[2] === '[]' ? ['array', 'null'] : inline[2] === '*' ? ['object', 'null'] : ['object'], struct: innerName };
        continue;
      }
      const field = /^\s*\w+\s+(\S+)\s+`[^`]*json:"([^",]+)[^`]*`/.exec(body[i]);
      if (!field || field[2] === '-') continue;
      shape[field[2]] = shapeOf(field[1], go.aliases, known);
    }
    out.set(name, shape);
  };
  for (const [name, body] of go.structs) parse(name, body);
  return out;
}

const jsonType = (v: unknown): JsonType => (v === null ? 'null' : Array.isArray(v) ? 'array' : (typeof v as JsonType));

/** Widens field types with what the recorded responses hold, matching each object to its best-covering struct. */
function widen(structs: Map<string, StructShape>, tests: string[], reachable: Set<string>): number {
  let matched = 0;
  const visit = (value: unknown, hint?: string) => {
    if (Array.isArray(value)) return value.forEach((v) => visit(v, hint));
    if (!value || typeof value !== 'object') return;
    const keys = Object.keys(value);
    let best: string | undefined = hint;
    if (!best && keys.length >= 3) {
      let score = 0;
      for (const name of reachable) {
        const fields = structs.get(name)!;
        const covered = keys.filter((k) => k in fields).length / keys.length;
        if (covered >= 0.8 && covered > score) [best, score] = [name, covered];
      }
    }
    const fields = best ? structs.get(best) : undefined;
    if (fields) matched++;
    for (const [k, v] of Object.entries(value)) {
      const f = fields?.[k];
      if (f && !f.types.includes(jsonType(v))) f.types.push(jsonType(v));
      visit(v, f?.struct);
    }
  };
  for (const text of tests) {
    for (const m of text.matchAll(/`(\s*[[{][\s\S]*?)`/g)) {
      try {
        visit(JSON.parse(m[1]));
      } catch {
        // A template or a request body, not a recorded response.
      }
    }
  }
  return matched;
}

const go = readGo();
const all = parseStructs(go);
const reachable = new Set<string>();
const reach = (name: string) => {
  if (reachable.has(name) || !all.has(name)) return;
  reachable.add(name);
  for (const f of Object.values(all.get(name)!)) if (f.struct) reach(f.struct);
};
ROOTS.forEach(reach);
const matched = widen(all, go.tests, reachable);
const structs = Object.fromEntries([...reachable].sort().map((name) => [name, all.get(name)!]));
const version = /^Version: (.+)$/m.exec(
  readFileSync('/var/lib/dpkg/status', 'utf8')
    .split('\n\n')
    .find((p) => p.includes('Package: golang-github-xanzy-go-gitlab-dev\n')) ?? '',
)?.[1];
const fixture = {
  source: `Debian golang-github-xanzy-go-gitlab-dev ${version ?? '(version unknown)'}: struct json tags and recorded test responses; regenerate with scripts/extract-gitlab-shapes.ts`,
  roots: ROOTS,
  structs,
};
writeFileSync(OUTPUT, `${JSON.stringify(fixture, null, 1)}\n`);
console.log(`${OUTPUT}: ${reachable.size} structs from ${ROOTS.length} roots; ${matched} recorded objects matched`);
