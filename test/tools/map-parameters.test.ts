// Map parameters (params.ts mapOf) and unions of value types, as the validator sees them: names held
// to the map's propertyNames, at most LIMITS.listItems entries, and an error inside a union named by
// the branch the value's type selects (D15, D31). Tools with a map parameter are covered through the
// MCP client in their own tests and in argument-limits.test.ts.
import { describe, expect, test } from 'bun:test';
import { Type } from '@sinclair/typebox';
import { publicSchema } from '../../src/tools/catalog';
import { LIMITS, MAX_INTEGER, mapOf, shortName } from '../../src/tools/params';
import { compileValidator } from '../../src/tools/validate';

const scalar = () => [Type.String({ maxLength: 5 }), Type.Number({ minimum: -MAX_INTEGER, maximum: MAX_INTEGER }), Type.Boolean()];
const value = Type.Union([...scalar(), Type.Array(Type.Union(scalar(), { hint: 'must be a string, number or boolean' }), { maxItems: 2 })], {
  hint: 'must be a string, number, boolean or a list of them',
});
const names = shortName({ pattern: '^[a-z_]+$', hint: 'must be lower-case letters and _ only' });
const schema = Type.Object(
  { m: Type.Optional(mapOf(names, value)), e: Type.Optional(Type.Union([Type.Literal('a'), Type.Literal('b')])) },
  { additionalProperties: false },
);
const validator = compileValidator(schema);

const refusal = (args: unknown) => {
  try {
    validator.validate(args);
  } catch (error) {
    return (error as Error).message;
  }
  return 'accepted';
};

describe('map parameters', () => {
  test('values of every branch pass, as given', () => {
    const m = { a: 'text', b: 2.5, c: false, d: ['x', -1] };
    expect(validator.validate({ m })).toEqual({ m });
  });

  test.each([
    [{ a_b: 1, 'A B': 1 }, 'm: name "A B" must be lower-case letters and _ only'],
    [{ '': 1 }, 'm: name "" must be lower-case letters and _ only'],
    [{ ['x'.repeat(300)]: 1 }, `m: name "${'x'.repeat(40)}…" must be at most ${LIMITS.name} characters (got 300)`],
    [
      Object.fromEntries(Array.from({ length: LIMITS.listItems + 1 }, (_, i) => [`k${'x'.repeat(i)}`, 1])),
      `m: must have at most ${LIMITS.listItems} entries (got ${LIMITS.listItems + 1})`,
    ],
  ])('names and entries: %#', (m, message) => {
    expect(refusal({ m })).toBe(message);
  });

  test('a value is explained by the branch its type selects', () => {
    expect(refusal({ m: { a: 'sixsix' } })).toBe('m.a: must be at most 5 characters (got 6)');
    expect(refusal({ m: { a: [1, 2, 3] } })).toBe('m.a: must have at most 2 items (got 3)');
    expect(refusal({ m: { a: ['ok', 'sixsix'] } })).toBe('m.a.1: must be at most 5 characters (got 6)');
    expect(refusal({ m: { a: 2 ** 60 } })).toStartWith('m.a: ');
    expect(refusal({ m: { a: { nested: 1 } } })).toBe('m.a: must be a string, number, boolean or a list of them');
    expect(refusal({ m: { a: null } })).toBe('m.a: must be a string, number, boolean or a list of them');
    expect(refusal({ m: { a: [['x']] } })).toBe('m.a.0: must be a string, number or boolean');
    expect(refusal({ m: 'a=1' })).toBe('m: expected object');
  });

  test('a union of constants is still explained as a whole', () => {
    expect(refusal({ e: 'c' })).toBe('e: must be one of a, b');
    expect(refusal({ e: 1 })).toBe('e: must be one of a, b');
  });

  test('published without its server-side bounds', () => {
    const published = JSON.stringify(publicSchema(schema));
    for (const keyword of ['maxProperties', 'propertyNames', 'maxLength', 'maxItems', 'minimum', 'maximum']) expect(published).not.toContain(keyword);
    expect(publicSchema(schema).properties!.m).toMatchObject({
      type: 'object',
      additionalProperties: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'array' }] },
    });
  });
});
