// CI/CD variables. The value never gets here unless the tool let it through (tools/variables/redact.ts).
import { compact, flag, type Rec } from './helpers';
import type { RecordKind } from './kind';
import { B, fields, S } from './schema-parts';

export const ciVariable: RecordKind = {
  about: 'A CI/CD variable: key, scope and flags; its value only when asked for and neither masked nor hidden.',
  schema: fields({
    key: S,
    value_withheld: S,
    variable_type: S,
    environment_scope: S,
    protected: B,
    masked: B,
    hidden: B,
    raw: B,
    description: S,
    value: S,
  }),
  lean: (r: Rec) => ({
    ...compact({
      key: r.key,
      value_withheld: r.value_withheld,
      // env_var is the default: only the other type is said.
      variable_type: r.variable_type === 'env_var' ? undefined : r.variable_type,
      environment_scope: r.environment_scope,
      protected: flag(r.protected),
      masked: flag(r.masked),
      hidden: flag(r.hidden),
      raw: flag(r.raw),
      description: r.description,
    }),
    // An empty value is a value: kept when it was let through; never a masked or hidden one (belt and braces).
    ...(typeof r.value === 'string' && r.masked !== true && r.hidden !== true ? { value: r.value } : {}),
  }),
};
