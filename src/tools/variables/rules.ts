// What GitLab accepts in a CI/CD variable, checked before anything is sent, so a bad write never
// reaches the forge and no refusal repeats the value (a secret):
// - key: letters, digits and _ only, at most 255 (app/models/concerns/ci/has_variable.rb);
// - a masked value, expanded: at least 8 characters of the Base64 alphabet plus @ : . ~ and -,
//   on one line, no spaces (Ci::Maskable::REGEX, app/models/concerns/ci/maskable.rb);
// - a masked raw value: at least 8 characters, none of them white space (Ci::Maskable::MASK_AND_RAW_REGEX);
// - masked_and_hidden (GitLab 17.4) is a creation-time choice and implies masked (lib/api/ci/variables.rb).
import { invalidArgument } from '../errors';

export const KEY_PATTERN = '^[A-Za-z0-9_]{1,255}$';
/** GitLab's limit on a value (doc/ci/variables: 10,000 characters). */
export const MAX_VALUE = 10_000;
/** environment_scope and description: string columns of 255. */
export const MAX_SCOPE = 255;

const MASKED = /^[A-Za-z0-9_+=/@:.~-]{8,}$/;

interface VariableWrite {
  value?: string;
  masked?: boolean;
  masked_and_hidden?: boolean;
  raw?: boolean;
}

/** Refuses a masked value GitLab would refuse, saying which rule without quoting the value. */
export function checkMaskedValue(args: VariableWrite): void {
  if (args.masked_and_hidden === true && args.masked === false) {
    throw invalidArgument('masked', 'cannot be false with masked_and_hidden: a hidden variable is always masked');
  }
  const masked = args.masked === true || args.masked_and_hidden === true;
  if (!masked || args.value === undefined) return;
  const v = args.value;
  let why: string | undefined;
  if (v.length < 8) why = `is ${v.length} characters; a masked value needs at least 8`;
  else if (/[\r\n]/.test(v)) why = 'spans more than one line; a masked value must be a single line';
  else if (/\s/.test(v)) why = 'holds white space, which a masked value may not';
  else if (args.raw !== true && !MASKED.test(v)) {
    why = 'holds a character a masked value may not (allowed: A-Z a-z 0-9 _ + = / @ : . ~ -; with raw: true any character but white space)';
  }
  if (why !== undefined) throw invalidArgument('value', why);
}
