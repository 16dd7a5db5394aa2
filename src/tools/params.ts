// Parameter schemas shared by many tools, so their wording and limits are the same everywhere.
// `hint` is our own keyword: the validator shows it instead of TypeBox's generic message.
// Conventions shared by every tool (what project_id takes, pagination defaults, date formats) are
// stated once in the server's instructions, so these carry no description unless a tool deviates.
import { FormatRegistry, Type } from '@sinclair/typebox';

const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function realDate(year: string, month: string, day: string): boolean {
  const d = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  return d.getUTCFullYear() === Number(year) && d.getUTCMonth() === Number(month) - 1 && d.getUTCDate() === Number(day);
}

FormatRegistry.Set('date-time', (value) => {
  const m = ISO_DATE_TIME.exec(value);
  return m !== null && realDate(m[1], m[2], m[3]) && Number(m[4]) < 24 && Number(m[5]) < 60;
});
FormatRegistry.Set('date', (value) => {
  const m = ISO_DATE.exec(value);
  return m !== null && realDate(m[1], m[2], m[3]);
});

/** A description only where one says more than the name, type and format already do. */
export const described = (description?: string) => (description ? { description } : {});

export const projectId = (description?: string) => Type.String({ minLength: 1, ...described(description) });

export const page = Type.Optional(Type.Integer({ minimum: 1 }));
export const perPage = Type.Optional(Type.Integer({ minimum: 1, maximum: 100, hint: 'must be an integer from 1 to 100' }));
export const pagination = { page, per_page: perPage };

export const isoDateTime = (description?: string) =>
  Type.Optional(Type.String({ format: 'date-time', ...described(description), hint: 'must be an ISO 8601 date-time such as 2026-01-31T23:59:59Z' }));

export const isoDate = (description?: string) =>
  Type.Optional(Type.String({ format: 'date', ...described(description), hint: 'must be a date in the form YYYY-MM-DD' }));
