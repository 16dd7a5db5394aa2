// Argument validation before any upstream call (DECISIONS D15). Schemas are compiled once at
// start-up; a value of the wrong JSON type that converts cleanly ("42" for an integer, 42 for a
// string id) is accepted, since agents often send either.
import type { TObject } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { Value, type ValueError } from '@sinclair/typebox/value';
import { ToolError } from './errors';

export interface ArgumentValidator {
  /** Returns the arguments to use, or throws a validation ToolError naming the parameter. */
  validate(args: unknown): Record<string, unknown>;
}

function parameterOf(error: ValueError): string {
  const path = error.path.replace(/^\//, '').replaceAll('/', '.');
  return path || 'arguments';
}

function explain(error: ValueError): string {
  if (error.message === 'Expected required property') return 'is required';
  const hint = (error.schema as { hint?: string }).hint;
  if (hint) return hint;
  if (error.message === 'Unexpected property') return 'is not a parameter of this tool';
  if (error.schema.enum || error.schema.anyOf) {
    const values = (error.schema.anyOf ?? []).map((s: { const?: unknown }) => s.const).filter((v: unknown) => v !== undefined);
    if (values.length) return `must be one of ${values.join(', ')}`;
  }
  return error.message.replace(/^Expected/, 'expected');
}

export function compileValidator(schema: TObject): ArgumentValidator {
  const check: TypeCheck<TObject> = TypeCompiler.Compile(schema);
  return {
    validate(args: unknown): Record<string, unknown> {
      const given = args ?? {};
      if (check.Check(given)) return given as Record<string, unknown>;
      const converted = Value.Convert(schema, Value.Clone(given));
      if (check.Check(converted)) return converted as Record<string, unknown>;
      const first = check.Errors(converted).First();
      if (!first) throw new ToolError('validation', 'arguments: invalid');
      // A missing required property reports on the parent; name the property itself.
      throw new ToolError('validation', `${parameterOf(first)}: ${explain(first)}`);
    },
  };
}
